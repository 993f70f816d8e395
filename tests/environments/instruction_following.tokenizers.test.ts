// IFEval's counting machinery. Punkt sentences are checked against what our own Punkt parameters
// (environments/instruction_following/instructions/util/punkt-params.ts: a short abbreviation list and determiners
// and pronouns as known lowercase words, no pretrained model) must give, each case by a rule a reader can check;
// NeMo Gym uses nltk's pretrained English model instead, and where the two differ the case says so. Every other
// expected value below (but word_tokenize on those differing rows, which follows their sentences) was produced by
// Python 3.11 with nltk 3.8 (the Treebank half of nltk.word_tokenize, applied to each Punkt sentence), the `re`
// and `json` modules, verifiable_instructions' split_into_sentences, and langdetect seeded at 0: nltk.word_tokenize,
// Python regexes (keywords are patterns in IFEval), json.loads, and the stand-in language identifier.
import { describe, expect, it } from "vitest";
import { detectLanguage } from "../../environments/instruction_following/instructions/util/langdetect.js";
import { isValidPythonJson } from "../../environments/instruction_following/instructions/util/json.js";
import { countSentences, sentTokenize } from "../../environments/instruction_following/instructions/util/punkt.js";
import { compilePy } from "../../environments/instruction_following/instructions/util/pyregex.js";
import { PyError } from "../../environments/instruction_following/instructions/util/python.js";
import { countMatches, countWords, splitIntoSentences } from "../../environments/instruction_following/instructions/util/text.js";
import { wordTokenize } from "../../environments/instruction_following/instructions/util/word-tokenize.js";

/**
 * [text, Punkt sentences with our parameters, nltk.word_tokenize tokens]. Both columns are what nltk 3.8 with its
 * English model gives too, except the two rows marked "differs from nltk", whose abbreviations our list has and
 * nltk's model lacks or reads otherwise. word_tokenize runs the Treebank tokenizer on each Punkt sentence, and
 * that splits off only a sentence's final period, so its tokens follow the sentence column.
 */
const TOKENIZED: [string, string[], string[]][] = [
  // "Dr" is an abbreviation and "Smith" is not a known lowercase word, so no break after "Dr."; "there." ends one.
  [
    "Hello there. Dr. Smith went home. It was fine!",
    ["Hello there.", "Dr. Smith went home.", "It was fine!"],
    ["Hello", "there", ".", "Dr.", "Smith", "went", "home", ".", "It", "was", "fine", "!"],
  ],
  // A number before a capitalized word ends a sentence; before a lowercase word it does not.
  [
    "1. First item\n2. second item\n3. Third item.",
    ["1.", "First item\n2. second item\n3.", "Third item."],
    ["1", ".", "First", "item", "2.", "second", "item", "3", ".", "Third", "item", "."],
  ],
  // Closing quotes and brackets stay with their sentence; "And" after an ellipsis is not a known lowercase word.
  [
    'He said "wow." Then he left... And nothing? Yes! (Really.) Sure.',
    ['He said "wow."', "Then he left... And nothing?", "Yes!", "(Really.)", "Sure."],
    ["He", "said", "``", "wow", ".", "''", "Then", "he", "left", "...", "And", "nothing", "?", "Yes", "!", "(", "Really", ".", ")", "Sure", "."],
  ],
  // "U.S." and "Mr." are listed abbreviations; "J." and "S." are initials before capitalized names.
  [
    "The U.S. economy grew. Mr. Jones disagreed. J. S. Bach was a composer.",
    ["The U.S. economy grew.", "Mr. Jones disagreed.", "J. S. Bach was a composer."],
    ["The", "U.S.", "economy", "grew", ".", "Mr.", "Jones", "disagreed", ".", "J.", "S.", "Bach", "was", "a", "composer", "."],
  ],
  // Decimals are not candidates (no space after the period); "Jan." is listed; "5." before "Sales" ends a sentence.
  [
    "Prices rose 3.5% to $4.20 on Jan. 5. Sales fell.",
    ["Prices rose 3.5% to $4.20 on Jan. 5.", "Sales fell."],
    ["Prices", "rose", "3.5", "%", "to", "$", "4.20", "on", "Jan.", "5", ".", "Sales", "fell", "."],
  ],
  // A period followed by a curly closing quote is not a candidate end (Punkt's period context wants a space).
  [
    "“Quoted.” Next sentence. ‘Single’ quotes’ here.",
    ["“Quoted.” Next sentence.", "‘Single’ quotes’ here."],
    ["“", "Quoted.", "”", "Next", "sentence", ".", "‘", "Single", "’", "quotes", "’", "here", "."],
  ],
  [
    "They're gonna do it, can't they? I cannot wait; 'tis the season.",
    ["They're gonna do it, can't they?", "I cannot wait; 'tis the season."],
    ["They", "'re", "gon", "na", "do", "it", ",", "ca", "n't", "they", "?", "I", "can", "not", "wait", ";", "'t", "is", "the", "season", "."],
  ],
  // As nltk's model: it knows none of "e.g", "i.e", "etc" as abbreviations, and neither does our list, so each ends a sentence.
  [
    "Wait . . . what? e.g. this i.e. that. etc. done.",
    ["Wait .", ".", ".", "what?", "e.g.", "this i.e.", "that.", "etc.", "done."],
    ["Wait", ".", ".", ".", "what", "?", "e.g", ".", "this", "i.e", ".", "that", ".", "etc", ".", "done", "."],
  ],
  // Differs from nltk: "She" and "They" are known lowercase words, so a sentence starts after "p.m." and "a.m."
  // (nltk breaks before "They" but keeps "p.m. She" together).
  [
    "He arrived at 5 p.m. She left at 6 a.m. They met.",
    ["He arrived at 5 p.m.", "She left at 6 a.m.", "They met."],
    ["He", "arrived", "at", "5", "p.m", ".", "She", "left", "at", "6", "a.m", ".", "They", "met", "."],
  ],
  [
    "A sentence with émojis 😀. Another one — with dashes -- and more...",
    ["A sentence with émojis 😀.", "Another one — with dashes -- and more..."],
    ["A", "sentence", "with", "émojis", "😀", ".", "Another", "one", "—", "with", "dashes", "--", "and", "more", "..."],
  ],
  [
    "Tabs\tand\tspaces.  Double  spaces.\r\nCRLF line.",
    ["Tabs\tand\tspaces.", "Double  spaces.", "CRLF line."],
    ["Tabs", "and", "spaces", ".", "Double", "spaces", ".", "CRLF", "line", "."],
  ],
  ["", [], []],
  ["No punctuation at all", ["No punctuation at all"], ["No", "punctuation", "at", "all"]],
];

/** [why, text, Punkt sentences with our parameters]: what the abbreviation list and the lowercase-word rule give. */
const PUNKT_RULES: [string, string, string[]][] = [
  [
    "a listed abbreviation before a known lowercase word ends a sentence",
    "I bought apples, pears, etc. The rest was gone.",
    ["I bought apples, pears, etc.", "The rest was gone."],
  ],
  [
    "a listed abbreviation before a capitalized word we know nothing about does not",
    "He works for Acme Inc. Sales are up.",
    ["He works for Acme Inc. Sales are up."],
  ],
  ["a listed abbreviation before 'They' does", "He works for Acme Inc. They make tools.", ["He works for Acme Inc.", "They make tools."]],
  ["titles before names", "Prof. Jones met Ms. Lee at St. Paul's Cathedral.", ["Prof. Jones met Ms. Lee at St. Paul's Cathedral."]],
  [
    "'Fig.' and 'No.' before numbers; an ordinary word's period ends a sentence",
    "See Fig. 3 for details. No. 5 is next.",
    ["See Fig. 3 for details.", "No. 5 is next."],
  ],
  ["'no.' is listed, but 'It' is a known lowercase word", "The answer is no. It is not.", ["The answer is no.", "It is not."]],
  [
    "'e.g.'/'i.e.' are not abbreviations (as in nltk's model), so their periods end sentences; the listed 'vs.' does not",
    "Use a tool, e.g. a hammer, i.e. something heavy, vs. a feather.",
    ["Use a tool, e.g.", "a hammer, i.e.", "something heavy, vs. a feather."],
  ],
  [
    "dotted abbreviations before lowercase and known lowercase words",
    "We met in Washington, D.C. last year. The U.K. The U.S. Both voted.",
    ["We met in Washington, D.C. last year.", "The U.K.", "The U.S. Both voted."],
  ],
  [
    "a.m. and p.m. before lowercase and capitalized words",
    "It starts at 9 a.m. and ends at 5 p.m. We leave after.",
    ["It starts at 9 a.m. and ends at 5 p.m.", "We leave after."],
  ],
  ["an abbreviation we do not list ends a sentence even before a lowercase word", "Contact the Assn. office today.", ["Contact the Assn.", "office today."]],
  [
    "a decimal is not split; a number's period before a capitalized word ends a sentence",
    "Pi is about 3.14. It never ends.",
    ["Pi is about 3.14.", "It never ends."],
  ],
  ["a number's period before a lowercase word does not", "It was 1999. the year ended.", ["It was 1999. the year ended."]],
  ["money amounts", "It costs $1.50. That is cheap.", ["It costs $1.50.", "That is cheap."]],
  ["an initial before a capitalized word we know nothing about is kept as an initial", "I got an A. Then I left.", ["I got an A. Then I left."]],
  ["an initial before a known lowercase word ends a sentence", "I got an A. The teacher smiled.", ["I got an A.", "The teacher smiled."]],
  ["a title, an initial and a surname", "Mr. A. Smith arrived.", ["Mr. A. Smith arrived."]],
  ["an ellipsis before a known lowercase word ends a sentence; '?!' ends one", "Wait... What?! Yes.", ["Wait...", "What?!", "Yes."]],
  ["an ellipsis before a lowercase word does not", "He paused... and then went on.", ["He paused... and then went on."]],
  ["an ellipsis before a capitalized word we know nothing about does not", "He paused... Then he went on.", ["He paused... Then he went on."]],
  [
    "a closing quote and a closing bracket stay with their sentence",
    'She said, "Stop." Then she left. (See below.) The end.',
    ['She said, "Stop."', "Then she left.", "(See below.)", "The end."],
  ],
  ["a newline alone is not a sentence break", "First line\nSecond line", ["First line\nSecond line"]],
  ["a period before a blank line is", "Done.\n\nNext part.", ["Done.", "Next part."]],
  ["a number ending a line before a capitalized word", "Chapter 3.\nThe story begins.", ["Chapter 3.", "The story begins."]],
];

/** [text, instructions_util.split_into_sentences(text)] */
const SPLIT: [string, string[]][] = [
  ["Mr. Smith went to Washington. He arrived at 3.30 p.m. today! Did he?", ["Mr. Smith went to Washington.", "He arrived at 3.30 p.m. today!", "Did he?"]],
  ['Visit example.com. It is "great." Really!', ["Visit example.com.", 'It is "great".', "Really!"]],
  ["Ph.D. students... work hard", ["Ph.D. students...", "work hard"]],
  ["A.B.C. He said. The Inc. Co. It works.", ["A.B.C.", "He said.", "The Inc. Co", "It works."]],
];

/** [pattern, text, flags, len(re.findall(pattern, text, flags)) or null for re.error] */
const REGEX: [string, string, string, number | null][] = [
  ["U.S.", "the U-S- border and U.S.", "", 2],
  ["C++", "a cat CC", "", 1],
  ["c++", "ccc c", "", 2],
  ["a{2}", "aaaa", "", 2],
  ["a{", "a{ a", "", 1],
  ["a{,2}b", "aab b", "", 2],
  ["(apple", "x", "", null],
  ["[", "x", "", null],
  ["\\q", "q", "", null],
  ["x**", "x", "", null],
  ["*x", "x", "", null],
  ["(?P<w>o)(?P=w)", "foo boo bo", "", 2],
  ["\\bcat\\b", "cat concat cat's", "", 2],
  ["caf\\b", "café caf", "", 1],
  ["\\w+", "naïve café_1 日本", "", 3],
  ["\\d", "1 ١ ½", "", 2],
  ["\\s", "a b c\u001cd", "", 3],
  ["^x", "x\nx", "", 1],
  ["^x", "x\nx", "m", 2],
  ["x$", "x\nx\n", "", 1],
  ["x$", "x\nx\n", "m", 2],
  [".", "a\r\n", "", 2],
  ["(?i)straße", "STRASSE Straße", "", 1],
  ["é", "É é", "i", 2],
  ["a|", "ab", "", 3],
  ["(?>a+)a", "aaa", "", 0],
  ["a*+a", "aaa", "", 0],
  ["(?<=a)b", "ab cb", "", 1],
  ["[^\\W\\d]", "a1_ é", "", 3],
  ["[\\]]", "]", "", 1],
  ["\\x41\\u00e9", "Aé", "", 1],
  ["(a)(b)", "abab", "", 2],
  ["(?#comment)a", "aa", "", 2],
];

/** [text, whether json.loads accepts it] */
const JSON_TEXTS: [string, boolean][] = [
  ['{"a": 1}', true],
  ["[NaN, Infinity, -Infinity]", true],
  ["1Infinity", false],
  ["{'a': 1}", false],
  ['"NaN"', true],
  ["nan", false],
  ["  ", false],
  ['{"a": "x\\"NaN"}', true],
];

/** [text, langdetect.detect(text) or null for LangDetectException] */
const LANGUAGES: [string, string | null][] = [
  ["The weather today is quite pleasant, and we are planning to go for a walk in the park after lunch.", "en"],
  ["El clima de hoy es bastante agradable y estamos planeando dar un paseo por el parque después del almuerzo.", "es"],
  ["O tempo hoje está bastante agradável e estamos planejando dar um passeio no parque depois do almoço.", "pt"],
  ["Le temps aujourd'hui est assez agréable et nous prévoyons de faire une promenade dans le parc après le déjeuner.", "fr"],
  ["Das Wetter heute ist ziemlich angenehm und wir planen, nach dem Mittagessen einen Spaziergang im Park zu machen.", "de"],
  ["Il tempo oggi è piuttosto piacevole e stiamo pensando di fare una passeggiata nel parco dopo pranzo.", "it"],
  ["Pogoda dzisiaj jest całkiem przyjemna i planujemy pójść na spacer do parku po obiedzie.", "pl"],
  ["Sää on tänään melko mukava, ja aiomme mennä kävelylle puistoon lounaan jälkeen.", "fi"],
  ["Hali ya hewa leo ni nzuri sana, na tunapanga kwenda kutembea katika bustani baada ya chakula cha mchana.", "sw"],
  ["Thời tiết hôm nay khá dễ chịu và chúng tôi đang định đi dạo trong công viên sau bữa trưa.", "vi"],
  ["Погода сегодня довольно приятная, и мы планируем прогуляться в парке после обеда.", "ru"],
  ["Погода сьогодні досить приємна, і ми плануємо прогулятися в парку після обіду.", "uk"],
  ["Времето днес е доста приятно и планираме да се разходим в парка след обяда.", "bg"],
  ["الطقس اليوم لطيف جدا ونحن نخطط للذهاب في نزهة في الحديقة بعد الغداء.", "ar"],
  ["هوا امروز بسیار خوب است و ما قصد داریم بعد از ناهار در پارک قدم بزنیم.", "fa"],
  ["آج موسم کافی خوشگوار ہے اور ہم دوپہر کے کھانے کے بعد پارک میں سیر کرنے کا ارادہ رکھتے ہیں۔", "ur"],
  ["आज मौसम काफी सुहावना है और हम दोपहर के भोजन के बाद पार्क में टहलने की योजना बना रहे हैं।", "hi"],
  ["आज हवामान खूप छान आहे आणि आम्ही दुपारच्या जेवणानंतर उद्यानात फिरायला जाण्याचा विचार करत आहोत.", "mr"],
  ["आज मौसम धेरै रमाइलो छ र हामी दिउँसोको खाना पछि पार्कमा घुम्न जाने योजना बनाउँदैछौं।", "ne"],
  ["আজকের আবহাওয়া বেশ মনোরম এবং আমরা দুপুরের খাবারের পরে পার্কে হাঁটতে যাওয়ার পরিকল্পনা করছি।", "bn"],
  ["ਅੱਜ ਮੌਸਮ ਕਾਫ਼ੀ ਸੁਹਾਵਣਾ ਹੈ ਅਤੇ ਅਸੀਂ ਦੁਪਹਿਰ ਦੇ ਖਾਣੇ ਤੋਂ ਬਾਅਦ ਪਾਰਕ ਵਿੱਚ ਸੈਰ ਕਰਨ ਦੀ ਯੋਜਨਾ ਬਣਾ ਰਹੇ ਹਾਂ।", "pa"],
  ["આજે હવામાન ખૂબ જ સુખદ છે અને અમે બપોરના ભોજન પછી પાર્કમાં ફરવા જવાની યોજના બનાવી રહ્યા છીએ.", "gu"],
  ["இன்று வானிலை மிகவும் இனிமையாக உள்ளது, மதிய உணவுக்குப் பிறகு பூங்காவில் நடக்கத் திட்டமிட்டுள்ளோம்.", "ta"],
  ["ఈ రోజు వాతావరణం చాలా ఆహ్లాదకరంగా ఉంది మరియు మేము మధ్యాహ్న భోజనం తర్వాత పార్కులో నడవాలని ప్లాన్ చేస్తున్నాము.", "te"],
  ["ಇಂದು ಹವಾಮಾನವು ಸಾಕಷ್ಟು ಆಹ್ಲಾದಕರವಾಗಿದೆ ಮತ್ತು ನಾವು ಮಧ್ಯಾಹ್ನದ ಊಟದ ನಂತರ ಉದ್ಯಾನವನದಲ್ಲಿ ನಡೆಯಲು ಯೋಜಿಸುತ್ತಿದ್ದೇವೆ.", "kn"],
  ["ഇന്നത്തെ കാലാവസ്ഥ വളരെ സുഖകരമാണ്, ഉച്ചഭക്ഷണത്തിന് ശേഷം പാർക്കിൽ നടക്കാൻ ഞങ്ങൾ പദ്ധതിയിടുന്നു.", "ml"],
  ["วันนี้อากาศค่อนข้างดีและเรากำลังวางแผนที่จะไปเดินเล่นในสวนสาธารณะหลังอาหารกลางวัน", "th"],
  ["오늘 날씨는 꽤 좋아서 점심 식사 후에 공원에서 산책할 계획입니다.", "ko"],
  ["今日の天気はとても良いので、昼食の後に公園を散歩する予定です。", "ja"],
  ["מזג האוויר היום נעים למדי ואנחנו מתכננים לטייל בפארק אחרי ארוחת הצהריים.", "he"],
  ["今天天气很好，我们打算午饭后去公园散步。", "zh-cn"],
  ["Ο καιρός σήμερα είναι αρκετά ευχάριστος και σχεδιάζουμε να κάνουμε μια βόλτα στο πάρκο μετά το μεσημεριανό.", "el"],
  ["THE WEATHER TODAY IS QUITE PLEASANT, AND WE ARE PLANNING TO GO FOR A WALK IN THE PARK AFTER LUNCH.", "en"],
  ["the weather today is quite pleasant, and we are planning to go for a walk in the park after lunch.", "en"],
  ["1234 !!!", null],
  ["", null],
];

describe("Punkt sentence tokenizer (our English parameters)", () => {
  it.each(TOKENIZED)("%j", (text, sentences) => {
    expect(sentTokenize(text)).toEqual(sentences);
    expect(countSentences(text)).toBe(sentences.length);
  });
  it.each(PUNKT_RULES)("%s: %j", (_why, text, sentences) => {
    expect(sentTokenize(text)).toEqual(sentences);
    expect(countSentences(text)).toBe(sentences.length);
  });
});

describe("nltk.word_tokenize", () => {
  it.each(TOKENIZED)("%j", (text, _sentences, tokens) => {
    expect(wordTokenize(text)).toEqual(tokens);
  });
});

describe("IFEval's split_into_sentences", () => {
  it.each(SPLIT)("%j", (text, sentences) => {
    expect(splitIntoSentences(text)).toEqual(sentences);
  });
});

describe("count_words (\\w+ runs, Unicode)", () => {
  it.each([
    ["This response has exactly six words.", 6],
    ["don't well-known", 4],
    ["naïve café 日本語 ١٢", 4],
    ["", 0],
  ] as const)("%j has %i words", (text, n) => {
    expect(countWords(text)).toBe(n);
  });
});

describe("Python regular expressions", () => {
  it.each(REGEX)("re.findall(%j, %j, %j)", (pattern, text, flags, expected) => {
    const options = { ignoreCase: flags === "i", multiline: flags === "m" };
    if (expected === null) {
      expect(() => compilePy(pattern, options)).toThrow(PyError);
    } else {
      expect(countMatches(compilePy(pattern, options).regex, text)).toBe(expected);
    }
  });
});

describe("json.loads", () => {
  it.each(JSON_TEXTS)("%j", (text, valid) => {
    expect(isValidPythonJson(text)).toBe(valid);
  });
});

describe("language identification (stand-in for langdetect) on clear sentences", () => {
  it.each(LANGUAGES)("%j", (text, code) => {
    expect(detectLanguage(text)).toBe(code);
  });
});
