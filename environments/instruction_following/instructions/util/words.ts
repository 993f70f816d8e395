// The words a missing keyword argument is drawn from. IFEval draws from its own WORD_LIST of about 1,500 words;
// this is a shorter list (about 450 common English nouns and verbs, no duplicates) written for this project. It
// only matters for rows that omit a keyword argument, where NeMo Gym's outcome is random too: the word drawn
// differs, not the rule.
export const WORD_LIST: readonly string[] = `
apple bread butter cheese coffee dinner egg fruit honey juice kitchen lemon lunch meal milk onion orange pepper
rice salad salt soup sugar tea tomato water breakfast cake cookie flour garlic oven plate spoon fork knife bowl
cup glass bottle table chair sofa bed pillow blanket lamp window door floor wall roof stairs garden fence gate
house room office school library museum hospital station airport market shop bank hotel restaurant theater
park bridge road street river lake ocean island mountain valley forest desert beach field farm village city
country border map compass journey ticket passport suitcase camera picture painting song music piano guitar
drum violin concert dance movie story novel poem letter message note paper pencil pen book page chapter
notebook envelope stamp calendar clock watch minute hour morning evening night week month season summer winter
spring autumn weather rain snow wind storm cloud sun moon star planet sky light shadow fire smoke stone sand
metal wood iron silver gold copper plastic rubber cotton wool leather cloth shirt jacket coat hat shoe boot
glove scarf button pocket ring necklace mirror brush comb soap towel bucket basket box bag rope chain wheel
engine motor battery wire cable switch machine tool hammer nail screw ladder shovel bicycle car truck bus
train ship boat plane rocket horse dog cat bird fish rabbit mouse lion tiger bear wolf fox deer cow sheep goat
pig duck chicken bee ant spider snake frog turtle whale shark tree flower grass leaf root seed branch bush
doctor nurse teacher student farmer driver pilot artist writer singer painter baker lawyer judge police soldier
captain king queen prince child parent mother father brother sister friend neighbor stranger guest crowd
team family army company price money coin wallet budget salary account receipt contract
meeting project plan idea question answer problem solution reason result effect cause method system process
language word sentence voice sound noise silence memory dream habit choice chance risk goal rule law
history science nature health energy power speed distance weight height size shape color pattern surface
corner edge center middle circle square line point number amount level group member leader partner
build carry climb cook cut dig draw drink drive eat fall fill find fix fly fold follow grow hang help hide hold
hunt jump keep kick knock laugh learn lift listen lock look make mix move open paint pick plant play pour pull
push reach read repair ride run sail save search sell send sew shake share shine shout sing sink sit sleep
slide smile sort speak spill spin stand start stay steal stir stop swim swing teach tell think throw touch
travel turn wait walk wash wave wear whisper win wish work write
`
  .split(/\s+/)
  .filter(Boolean);
