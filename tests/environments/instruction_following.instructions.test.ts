// Each instruction's edge cases — boundaries of "at least" / "less than", case, punctuation, markdown, empty
// responses, unicode, bad arguments — through the verifier in plain Node. Every expected value is what NeMo Gym's
// own library gives for the same input: verifiable_instructions (abukharin-nv/verifiable-instructions@f46a5ac)
// with nltk's Punkt English model, and langdetect (seeded) for the language cases. Sentence-count cases use only
// sentence ends on which our own Punkt parameters (util/punkt-params.ts) and nltk's model agree; the language
// cases are clear sentences on which our detector and langdetect agree.
import { describe, expect, it } from "vitest";
import environment from "../../environments/instruction_following/index.js";
import { INSTRUCTIONS, IFEVAL_IDS } from "../../environments/instruction_following/instructions/registry.js";
import { noState, perform } from "../../environments/sdk/perform.js";

type Case = [description: string, kwargs: Record<string, unknown>, response: string, followed: boolean];

const CASES: Record<string, Case[]> = {
  "keywords:existence": [
    ["all keywords present, any case", { keywords: ["Apple", "banana"] }, "I like apples and BANANAS.", true],
    ["one keyword missing", { keywords: ["apple", "cherry"] }, "I like apples.", false],
    ["keywords are regexes: '.' matches any character", { keywords: ["U.S."] }, "the U-S- border", true],
    ["'C++' is a possessive repeat in Python 3.11+, so any 'c' matches", { keywords: ["C++"] }, "a cat", true],
    ["an invalid regex fails the instruction", { keywords: ["(apple"] }, "(apple", false],
    ["a string is iterated character by character", { keywords: "ab" }, "bat", true],
    ["a non-string keyword fails", { keywords: [1] }, "1", false],
    ["unicode keyword, case-insensitive", { keywords: ["Café"] }, "un CAFÉ noir", true],
    ["empty response", { keywords: ["apple"] }, "", false],
    ["an unknown kwarg fails the instruction (TypeError)", { keywords: ["a"], extra: 1 }, "a", false],
  ],
  "keywords:frequency": [
    ["'at least' boundary: exactly the threshold", { keyword: "word", frequency: 2, relation: "at least" }, "word and Word", true],
    ["'at least': one short", { keyword: "word", frequency: 3, relation: "at least" }, "word and Word", false],
    ["'less than' boundary: equal is not less", { keyword: "word", frequency: 2, relation: "less than" }, "word word", false],
    ["'less than': one below", { keyword: "word", frequency: 2, relation: "less than" }, "word", true],
    ["substring matches count (no word boundary)", { keyword: "cat", frequency: 2, relation: "at least" }, "cat category", true],
    ["the keyword is stripped", { keyword: "  word  ", frequency: 1, relation: "at least" }, "password", true],
    ["an unknown relation fails", { keyword: "word", frequency: 1, relation: "at most" }, "word", false],
    ["a string threshold fails (str < int)", { keyword: "word", frequency: "1", relation: "at least" }, "word", false],
    ["a float threshold compares numerically", { keyword: "word", frequency: 1.5, relation: "at least" }, "word word", true],
  ],
  "keywords:forbidden_words": [
    ["absent words pass", { forbidden_words: ["inevitable", "part"] }, "Nothing to see here.", true],
    ["a whole-word hit fails, any case", { forbidden_words: ["part"] }, "It is PART of it.", false],
    ["a word inside a longer word is allowed (\\b boundaries)", { forbidden_words: ["part"] }, "a partial partner", true],
    ["unicode boundaries: 'caf' inside 'café' is not a word", { forbidden_words: ["caf"] }, "un café", true],
    ["punctuation around the word still matches", { forbidden_words: ["part"] }, "(part)", false],
    ["a list element that is not a string fails", { forbidden_words: [["part"]] }, "nothing", false],
  ],
  "keywords:letter_frequency": [
    ["'at least' boundary, counted case-insensitively", { letter: "a", let_frequency: 3, let_relation: "at least" }, "A bad cat", true],
    ["'less than' boundary", { letter: "a", let_frequency: 3, let_relation: "less than" }, "A bad cat", false],
    ["an uppercase letter argument is lowercased", { letter: "E", let_frequency: 2, let_relation: "at least" }, "eE", true],
    ["accented letters are other characters", { letter: "e", let_frequency: 1, let_relation: "at least" }, "é", false],
    ["an invalid relation fails", { letter: "a", let_frequency: 1, let_relation: "exactly" }, "a", false],
    ["a non-string letter fails", { letter: 5, let_frequency: 1, let_relation: "at least" }, "a", false],
  ],
  "keywords:no_adjacent_consecutive": [
    ["no consecutive initials", {}, "zebra apple cat", true],
    ["'abc bcd' starts with a then b", {}, "abc bcd", false],
    ["case-insensitive", {}, "Apple Banana", false],
    ["reverse order is fine", {}, "banana apple", true],
    ["empty response", {}, "", true],
  ],
  "keywords:word_once": [
    ["exactly once", { keyword: "apple" }, "An apple a day.", true],
    ["twice fails", { keyword: "apple" }, "apple APPLE", false],
    ["zero fails", { keyword: "apple" }, "pear", false],
  ],
  "keywords:word_count_different_numbers": [
    ["'at least' boundary", { keyword: "the", frequency: 2, relation: "at least" }, "the cat and the dog", true],
    ["'less than' boundary", { keyword: "the", frequency: 2, relation: "less than" }, "the cat and the dog", false],
  ],
  "keywords:exclude_word_harder": [
    ["the word with spaces around it fails", { keyword: "the" }, "in the end", false],
    ["at the start (no leading space) it passes", { keyword: "the" }, "the end", true],
    ["case-sensitive", { keyword: "the" }, "in THE end", true],
    ["followed by punctuation passes", { keyword: "the" }, "in the, end", true],
  ],
  "keywords:palindrome": [
    ["a palindrome word", {}, "see the racecar", true],
    ["single characters are palindromes", {}, "I went", true],
    ["punctuation breaks a palindrome", {}, "racecar, noon.", false],
    ["no palindrome", {}, "hello world", false],
    ["empty response", {}, "", false],
  ],
  "keywords:keyword_specific_position": [
    ["keyword is the m-th token of the n-th sentence", { keyword: "blue", n: 2, m: 3 }, "The sky. It is blue today.", true],
    ["case-sensitive", { keyword: "Blue", n: 2, m: 3 }, "The sky. It is blue today.", false],
    ["too few sentences", { keyword: "blue", n: 3, m: 1 }, "One. Two.", false],
    ["punctuation is its own token", { keyword: ",", n: 1, m: 2 }, "Well, yes.", true],
    ["a list keyword uses its first element", { keyword: ["sky"], n: 1, m: 2 }, "The sky.", true],
  ],
  "keywords:start_end": [
    ["same first and last word", {}, "Hello to you, hello", true],
    ["trailing punctuation is the last token", {}, "Hello to you, hello.", false],
    ["a single word is not enough", {}, "Hello", false],
    ["empty response", {}, "", false],
  ],
  "language:response_language": [
    [
      "English response, en requested",
      { language: "en" },
      "The weather today is quite pleasant, and we are planning to go for a walk in the park after lunch.",
      true,
    ],
    [
      "French response, en requested",
      { language: "en" },
      "Le temps aujourd'hui est assez agréable et nous prévoyons de faire une promenade dans le parc après le déjeuner.",
      false,
    ],
    [
      "French response, fr requested",
      { language: "fr" },
      "Le temps aujourd'hui est assez agréable et nous prévoyons de faire une promenade dans le parc après le déjeuner.",
      true,
    ],
    ["Russian", { language: "ru" }, "Погода сегодня довольно приятная, и мы планируем прогуляться в парке после обеда.", true],
    ["Ukrainian is not Russian", { language: "ru" }, "Погода сьогодні досить приємна, і ми плануємо прогулятися в парку після обіду.", false],
    ["Japanese", { language: "ja" }, "今日の天気はとても良いので、昼食の後に公園を散歩する予定です。", true],
    ["Hindi", { language: "hi" }, "आज मौसम काफी सुहावना है और हम दोपहर के भोजन के बाद पार्क में टहलने की योजना बना रहे हैं।", true],
    ["a code outside IFEval's 30 languages is never followed", { language: "zh" }, "今天天气很好，我们打算午饭后去公园散步。", false],
    ["no letters at all: undetectable counts as followed", { language: "de" }, "1234 5678 !!!", true],
    ["empty response counts as followed", { language: "ko" }, "", true],
  ],
  "change_case:english_capital": [
    ["all capitals, English", {}, "THE WEATHER TODAY IS QUITE PLEASANT, AND WE ARE PLANNING TO GO FOR A WALK IN THE PARK AFTER LUNCH.", true],
    ["one lowercase letter fails", {}, "THE WEATHER TODAY IS QUITE PLEASANt.", false],
    ["all capitals but French", {}, "LE TEMPS AUJOURD'HUI EST ASSEZ AGRÉABLE ET NOUS PRÉVOYONS DE FAIRE UNE PROMENADE DANS LE PARC APRÈS LE DÉJEUNER.", false],
    ["no cased letters at all fails (str.isupper)", {}, "1234 !!!", false],
  ],
  "change_case:english_lowercase": [
    ["all lowercase, English", {}, "the weather today is quite pleasant, and we are planning to go for a walk in the park after lunch.", true],
    ["one capital fails", {}, "The weather today is quite pleasant.", false],
    ["empty response fails (str.islower)", {}, "", false],
  ],
  "change_case:capital_word_frequency": [
    ["'at least' boundary", { capital_frequency: 2, capital_relation: "at least" }, "NASA and the FBI met", true],
    ["'less than' boundary", { capital_frequency: 2, capital_relation: "less than" }, "NASA and the FBI met", false],
    ["single capital letters count ('I', 'A')", { capital_frequency: 2, capital_relation: "at least" }, "I have A plan", true],
    ["hyphenated all-caps word is one token", { capital_frequency: 1, capital_relation: "at least" }, "a COVID-19 case", true],
    ["an invalid relation fails", { capital_frequency: 1, capital_relation: "at most" }, "NASA", false],
  ],
  "length_constraints:number_sentences": [
    [
      "'at least' boundary with abbreviations (Punkt)",
      { num_sentences: 3, relation: "at least" },
      "Dr. Smith arrived. He sat down. It was 5 p.m. when he left.",
      true,
    ],
    ["'less than' boundary", { num_sentences: 3, relation: "less than" }, "One. Two. Three.", false],
    ["'less than' one below", { num_sentences: 3, relation: "less than" }, "One. Two.", true],
    [
      "numbered items before lowercase words are not breaks ('2.' reads as an abbreviation)",
      { num_sentences: 3, relation: "at least" },
      "1. apples\n2. pears\n3. plums",
      false,
    ],
    ["numbered items before capitalized words are breaks", { num_sentences: 3, relation: "at least" }, "1. Apples\n2. Pears\n3. Plums", true],
    ["empty response has zero sentences", { num_sentences: 1, relation: "less than" }, "", true],
    ["ellipsis and exclamations", { num_sentences: 3, relation: "at least" }, "Wait... What?! Yes.", true],
  ],
  "length_constraints:number_paragraphs": [
    ["two paragraphs with the *** divider", { num_paragraphs: 2 }, "First.\n***\nSecond.", true],
    ["a divider at either end is ignored", { num_paragraphs: 2 }, "***\nFirst.\n***\nSecond.\n***", true],
    ["an empty paragraph in the middle fails", { num_paragraphs: 2 }, "First.\n***\n***\nSecond.", false],
    ["blank lines do not divide", { num_paragraphs: 2 }, "First.\n\nSecond.", false],
    ["'****' still splits (with a stray '*')", { num_paragraphs: 2 }, "First.\n****\nSecond.", true],
    ["empty response", { num_paragraphs: 1 }, "", false],
  ],
  "length_constraints:number_words": [
    ["'at least' boundary", { num_words: 6, relation: "at least" }, "This response has exactly six words.", true],
    ["'less than' boundary", { num_words: 6, relation: "less than" }, "This response has exactly six words.", false],
    ["contractions and hyphens split words (\\w+): 4, not 5", { num_words: 5, relation: "at least" }, "don't well-known", false],
    ["unicode letters are word characters", { num_words: 2, relation: "at least" }, "café naïve", true],
    ["empty response has zero words", { num_words: 1, relation: "less than" }, "", true],
    ["numbers count as words", { num_words: 3, relation: "at least" }, "1 2 3", true],
  ],
  "length_constraints:nth_paragraph_first_word": [
    ["right count and first word", { num_paragraphs: 2, nth_paragraph: 2, first_word: "crash" }, "Intro.\n\nCrash, then silence.", true],
    ["quotes before the word are dropped", { num_paragraphs: 2, nth_paragraph: 2, first_word: "crash" }, 'Intro.\n\n"Crash" went the door.', true],
    [
      "a dash is not punctuation here: 'crash—emotion' is the word",
      { num_paragraphs: 2, nth_paragraph: 2, first_word: "crash" },
      "Intro.\n\nCrash—emotion.",
      false,
    ],
    ["wrong paragraph count", { num_paragraphs: 3, nth_paragraph: 2, first_word: "crash" }, "Intro.\n\nCrash.", false],
    ["the first word is lowercased", { num_paragraphs: 1, nth_paragraph: 1, first_word: "HELLO" }, "hello there", true],
    ["a non-string first word fails", { num_paragraphs: 1, nth_paragraph: 1, first_word: 5 }, "5 apples", false],
  ],
  "detectable_content:number_placeholders": [
    ["'at least' boundary", { num_placeholders: 2 }, "Dear [name], at [address].", true],
    ["one short", { num_placeholders: 3 }, "Dear [name], at [address].", false],
    ["a placeholder cannot span lines", { num_placeholders: 1 }, "[name\n]", false],
    ["empty brackets count", { num_placeholders: 1 }, "[]", true],
  ],
  "detectable_content:postscript": [
    ["P.S. anywhere", { postscript_marker: "P.S." }, "Thanks.\nP.S. See you.", true],
    ["case-insensitive, with spaces: 'p. s.'", { postscript_marker: "P.S." }, "thanks p. s. bye", true],
    ["P.P.S", { postscript_marker: "P.P.S" }, "Thanks.\nP.P.S. Also this.", true],
    ["P.S. does not satisfy P.P.S", { postscript_marker: "P.P.S" }, "Thanks.\nP.S. Also this.", false],
    ["a custom marker is a lowercased regex", { postscript_marker: "Note:" }, "NOTE: later", true],
    ["missing postscript", { postscript_marker: "P.S." }, "Thanks, bye.", false],
  ],
  "detectable_format:number_bullet_lists": [
    ["exactly N, '*' and '-' bullets", { num_bullets: 3 }, "* one\n* two\n- three", true],
    ["one too many", { num_bullets: 2 }, "* one\n* two\n- three", false],
    ["'**bold**' lines are not bullets", { num_bullets: 1 }, "**Bold**\n* item", true],
    ["indented bullets count", { num_bullets: 2 }, "* one\n    * nested", true],
    ["a '---' rule counts as a dash bullet", { num_bullets: 1 }, "text\n---\nmore", true],
    ["numbered lists are not bullets", { num_bullets: 0 }, "1. one\n2. two", true],
  ],
  "detectable_format:constrained_response": [
    ["contains an option", {}, "My answer is yes.", true],
    ["case-sensitive", {}, "my answer is yes.", false],
    ["inside a longer answer", {}, "Well... My answer is maybe. Thanks", true],
  ],
  "detectable_format:number_highlighted_sections": [
    ["'at least' boundary with *single* and **double**", { num_highlights: 2 }, "*one* and **two**", true],
    ["empty highlights do not count", { num_highlights: 1 }, "** ** and * *", false],
    ["a highlight cannot span lines", { num_highlights: 1 }, "*one\ntwo*", false],
    ["**double** counts once (the single-star pattern only finds empty '**')", { num_highlights: 2 }, "**bold**", false],
  ],
  "detectable_format:multiple_sections": [
    ["'at least' boundary", { section_spliter: "Section", num_sections: 2 }, "Section 1\nA\nSection 2\nB", true],
    ["case-sensitive splitter", { section_spliter: "Section", num_sections: 1 }, "SECTION 1\nA", false],
    ["the splitter is stripped", { section_spliter: " SECTION ", num_sections: 1 }, "SECTION 1\nA", true],
    ["a number is required after the splitter", { section_spliter: "Section", num_sections: 1 }, "Section one\nA", false],
    ["a capturing group in the splitter adds pieces (re.split)", { section_spliter: "(Part)", num_sections: 2 }, "Part 1 A", true],
  ],
  "detectable_format:json_format": [
    ["fenced JSON", {}, '```json\n{"a": 1}\n```', true],
    ["bare JSON array", {}, "[1, 2, 3]", true],
    ["Python's json accepts NaN", {}, '{"a": NaN}', true],
    ["single quotes are not JSON", {}, "{'a': 1}", false],
    ["trailing text is not JSON", {}, '{"a": 1} done', false],
    ["empty response", {}, "", false],
  ],
  "detectable_format:title": [
    ["a title", {}, "<<My Title>>\nText", true],
    ["an empty title does not count", {}, "<< >>", false],
    ["a title cannot span lines", {}, "<<My\nTitle>>", false],
    ["single angle brackets do not count", {}, "<Title>", false],
    ["null kwargs are dropped", { x: null }, "<<T>>", true],
  ],
  "detectable_format:sentence_hyphens": [
    ["sentences joined by hyphens", {}, "I ran.-I fell.", true],
    ["spaces around the hyphen fail", {}, "I ran. - I fell.", false],
    ["no hyphen, one sentence", {}, "I ran.", true],
  ],
  "detectable_format:square_brackets": [
    ["every word bracketed", {}, "[Every] [word]", true],
    ["one bare word fails", {}, "[Every] word", false],
    ["empty response passes", {}, "", true],
  ],
  "detectable_format:bigram_wrapping": [
    ["every bigram wrapped", {}, "<<I am>> <<at home>>", true],
    ["an odd last word is not checked", {}, "<<I am>> alone", true],
    ["unwrapped bigram fails", {}, "I am <<at home>>", false],
  ],
  "combination:two_responses": [
    ["two different responses", {}, "Yes.\n******\nNo.", true],
    ["identical responses fail", {}, "Yes.\n******\nYes.", false],
    ["three responses fail", {}, "A ****** B ****** C", false],
    ["a separator at the end is ignored", {}, "A ****** B ******", true],
  ],
  "combination:repeat_prompt": [
    ["starts with the prompt, any case", { prompt_to_repeat: "Write a poem." }, "write a poem. Roses are red.", true],
    ["does not start with it", { prompt_to_repeat: "Write a poem." }, "Sure! Write a poem.", false],
    ["missing prompt_to_repeat fails", {}, "Anything", false],
  ],
  "startend:end_checker": [
    ["exact ending", { end_phrase: "Any other questions?" }, "Done. Any other questions?", true],
    ["case-insensitive; trailing quotes and spaces ignored", { end_phrase: "Any other questions?" }, 'Done. any other questions?"  ', true],
    ["text after the phrase fails", { end_phrase: "Any other questions?" }, "Any other questions? Bye.", false],
  ],
  "startend:quotation": [
    ["wrapped in double quotes", {}, '"Hello"', true],
    ["surrounding whitespace ignored", {}, '  "Hello"\n', true],
    ["a lone quote is too short", {}, '"', false],
    ["single quotes do not count", {}, "'Hello'", false],
  ],
  "punctuation:no_comma": [
    ["no comma", {}, "Hello world", true],
    ["a comma", {}, "Hello, world", false],
    ["a fullwidth comma is not a comma", {}, "你好，世界", true],
    ["unicode-only response", {}, "日本語 😀", true],
  ],
  "punctuation:punctuation_dot": [
    ["no dot", {}, "Hello world", true],
    ["a dot in a number", {}, "Pi is 3.14", false],
  ],
  "punctuation:punctuation_exclamation": [
    ["no exclamation mark", {}, "Hello world", true],
    ["an exclamation mark", {}, "Hello!", false],
  ],
  "copy:repeat_phrase": [
    [
      "two repetitions, one word changed each",
      { phrase: "The early bird catches the worm", small_n: 2 },
      "The early cat catches the worm. The early bird eats the worm.",
      true,
    ],
    [
      "an unchanged repetition fails (last one decides)",
      { phrase: "The early bird catches the worm", small_n: 2 },
      "The early cat catches the worm. The early bird catches the worm.",
      false,
    ],
    [
      "wrong number of repetitions",
      { phrase: "The early bird catches the worm", small_n: 1 },
      "The early cat catches the worm. The early bird eats the worm.",
      false,
    ],
  ],
  "copy:copy": [
    ["exact copy, case-insensitive and trimmed", { prompt_to_repeat: "Copy this." }, "  copy THIS.  ", true],
    ["anything extra fails", { prompt_to_repeat: "Copy this." }, "Copy this. Done.", false],
  ],
  "copy:copying_simple": [["exact copy", { prompt_to_repeat: "Copy this." }, "Copy this.", true]],
  "copy:copying_multiple": [
    ["N copies separated by ******", { prompt_to_repeat: "Copy this.", N: 2 }, "Copy this.\n******\ncopy this.", true],
    ["wrong count", { prompt_to_repeat: "Copy this.", N: 3 }, "Copy this.\n******\ncopy this.", false],
  ],
  "new:copy_span_idx": [
    ["the character span [n_start, n_end)", { prompt_to_repeat: "Hello brave world", n_start: 6, n_end: 11 }, "brave", true],
    ["a trailing space in the span is stripped", { prompt_to_repeat: "Hello brave world", n_start: 6, n_end: 12 }, "brave", true],
    ["one character short", { prompt_to_repeat: "Hello brave world", n_start: 6, n_end: 10 }, "brave", false],
    ["indices count code points (emoji is one)", { prompt_to_repeat: "😀 Hello", n_start: 2, n_end: 7 }, "hello", true],
  ],
  "paragraphs:paragraphs": [
    ["two *** paragraphs", {}, "A\n***\nB", true],
    ["three fail", {}, "A\n***\nB\n***\nC", false],
    ["any kwargs fail (no parameters)", { num_paragraphs: 2 }, "A\n***\nB", false],
  ],
  "paragraphs:paragraphs2": [
    ["two blank-line paragraphs", {}, "A\n\nB", true],
    ["three newlines leave a stray newline but still two", {}, "A\n\n\nB", true],
    ["an empty paragraph in the middle fails", {}, "A\n\n\n\nB", false],
  ],
  "first_word:first_word_sent": [
    ["every sentence starts with the word", { first_word: "Relationship" }, "Relationship one. relationship two!", true],
    ["one sentence does not", { first_word: "relationship" }, "Relationship one. The two.", false],
    ["empty response has no sentences", { first_word: "relationship" }, "", true],
    ["a non-string first word fails", { first_word: ["relationship"] }, "Relationship one.", false],
  ],
  "first_word:first_word_answer": [
    ["first word matches, any case", { first_word: "hello" }, "Hello there", true],
    ["punctuation stays attached", { first_word: "hello" }, "Hello, there", false],
    ["empty response", { first_word: "hello" }, "", false],
  ],
  "last_word:last_word_sent": [
    ["every sentence ends with the word", { last_word: "contest" }, "A contest. Another contest!", true],
    ["one does not", { last_word: "contest" }, "A contest. Another game.", false],
  ],
  "last_word:last_word_answer": [
    ["punctuation is removed from the last word", { last_word: "contest" }, "The end is a contest.", true],
    ["quotes and emphasis removed", { last_word: "contest" }, 'a **"contest"**', true],
    ["different last word", { last_word: "contest" }, "contest over", false],
    ["empty response raises, so fails", { last_word: "contest" }, "", false],
  ],
  "count:lowercase_counting": [
    ["'at most' boundary", { N: 3 }, "one two three FOUR", true],
    ["one over", { N: 3 }, "one two three four", false],
    ["accented words are not [a-z]+ words", { N: 0.5 }, "café", true],
  ],
  "count:counting_composition": [
    ["3 paragraphs × 1 sentence × 2 tokens", { n_sent: 1, n_words: 2 }, "Hi there\n***\nGood day\n***\nSo long", true],
    ["punctuation is a token", { n_sent: 1, n_words: 2 }, "Hi there.\n***\nGood day\n***\nSo long", false],
    ["two paragraphs fail", { n_sent: 1, n_words: 2 }, "Hi there\n***\nGood day", false],
  ],
  "count:count_unique": [
    ["all unique tokens", {}, "one two three", true],
    ["a repeated token fails (case-sensitive)", {}, "one two one", false],
    ["case differs: unique", {}, "One one", true],
    ["repeated punctuation tokens fail", {}, "Hi. Bye.", false],
  ],
  "count:count_increment_word": [
    ["once and twice", { keyword1: "apple", keyword2: "pear" }, "apple pear PEAR", true],
    ["wrong counts", { keyword1: "apple", keyword2: "pear" }, "apple apple pear pear", false],
    ["a missing keyword is never followed (IFEval uses a list as the pattern)", { keyword1: "apple" }, "apple", false],
  ],
  "letters:letter_counting": [
    ["'at least' boundary (ASCII letters only: 4)", { N: 4, relation: "at least" }, "héllo!", true],
    ["'at least': one short", { N: 5, relation: "at least" }, "héllo!", false],
    ["'less than' boundary", { N: 4, relation: "less than" }, "héllo!", false],
    ["'less than': one above", { N: 5, relation: "less than" }, "héllo!", true],
    ["an unknown relation is never followed", { N: 1, relation: "exactly" }, "abc", false],
  ],
  "letters:letter_counting2": [["letter frequency", { letter: "l", let_frequency: 2, let_relation: "at least" }, "Hello", true]],
};

async function follows(id: string, kwargs: Record<string, unknown>, response: string): Promise<boolean> {
  const body = {
    id: 1,
    responses_create_params: { input: [{ role: "user", content: "prompt" }] },
    response: {
      id: "resp_edge",
      created_at: 0,
      model: "dummy",
      object: "response",
      output: [
        { id: "msg_edge", type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text: response, annotations: [] }] },
      ],
    },
    verifier_metadata: { instruction_id_list: [id], prompt: "prompt", kwargs: [kwargs] },
  };
  const outcome = await perform(environment, { kind: "verify" }, body, { sessionId: "t", state: noState, signal: new AbortController().signal });
  expect(outcome.status).toBe(200);
  const answer = outcome.body as { follow_instruction_list: boolean[]; reward: number };
  expect(answer.reward).toBe(answer.follow_instruction_list[0] ? 1 : 0);
  return answer.follow_instruction_list[0]!;
}

describe.each(Object.entries(CASES))("%s", (id, cases) => {
  it.each(cases)("%s", async (_description, kwargs, response, followed) => {
    expect(await follows(id, kwargs, response)).toBe(followed);
  });
});

describe("the registry", () => {
  it("implements all 54 instructions of verifiable_instructions' INSTRUCTION_DICT, each with edge cases here", () => {
    expect(INSTRUCTIONS.size).toBe(54);
    expect([...INSTRUCTIONS.keys()].sort()).toEqual(Object.keys(CASES).sort());
  });
  it("includes Google's 25 IFEval instructions", () => {
    expect(IFEVAL_IDS).toHaveLength(25);
    for (const id of IFEVAL_IDS) expect(INSTRUCTIONS.has(id), id).toBe(true);
  });
});

describe("missing arguments are drawn at random, as IFEval draws them", () => {
  it("number_words without kwargs: threshold in [100, 500] and a random relation", async () => {
    const { setRandomSource } = await import("../../environments/instruction_following/instructions/util/random.js");
    const previous = setRandomSource(() => 0);
    try {
      expect(await follows("length_constraints:number_words", {}, "five words in this response")).toBe(true); // less than 100
      setRandomSource(() => 0.9999);
      expect(await follows("length_constraints:number_words", {}, "five words in this response")).toBe(false); // at least 500
    } finally {
      setRandomSource(previous);
    }
  });
});
