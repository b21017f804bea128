# ruff: noqa: E501 (data: one kind per line reads better than wrapped tuples)
"""English clause templates per kind (pure data) for the clause generator.

As ``templates_zh``; in addition ``{a|b}`` is a verb in the first and the third person ("{I}
{work|works}"), ``{a|b|c}`` adds the form for "you", and ``{my}`` is the possessive (my,
Neko's, my sister's).
"""

from __future__ import annotations

STATE: dict[str, tuple[str, ...]] = {
    "name": ("my name is {name}", "call me {name}", "{name} here, new to the group", "I'm {name} btw",
             "you can call me {name}", "everyone calls me {name}", "hi I'm {name}", "just call me {name}",
             "I go by {name}", "it's {name}, from the other chat"),
    "work": ("{I} {work|works} at {company}", "{I} {am|is|are} a {job}", "{I} {work|works} as a {job}",
             "~{I} just started a new job at {company}", "~{I} quit my job", "~{I} got laid off",
             "~{I} {am|is|are} switching jobs next month", "~{I} got an offer from {company}, starting next month",
             "{I} {do|does} {parttime} shifts on weekends", "{I} {work|works} part-time as a {parttime}",
             "~{I} moved to {company}", "~{I} left {company} last week", "{I}'ve been at {company} for 3 years",
             "~{I} got promoted to senior {job}", "{I} {am|is|are} interning at {company}",
             "~{I} changed careers, {am|is|are} a {job} now", "{job} by day, gamer by night",
             "~new job at {company} starts monday", "{I} {freelance|freelances} as a {job}",
             "~{I} handed in my notice today", "{I} {run|runs} a small bakery", "working at {company} these days",
             "{I} picked up a side gig as a {parttime}", "{I} {work|works} weekends as a {parttime}",
             "{I} {tutor|tutors} kids after school for extra cash", "~{I} started a part-time job as a {parttime}",
             "{I} {drive|drives} for a delivery app on the side"),
    "study": ("{I} {study|studies} {major} at {school}", "{I} {am|is|are} a student at {school}",
              "{I} {major|majors} in {major}", "~{I} got into {school}", "{I} {am|is|are} doing a PhD in {major}",
              "{I} graduated from {school}", "~{I} transferred to {school}", "{I} {am|is|are} in my second year at {school}",
              "~{I} dropped out of {school}", "{I} {take|takes} night classes in {major}", "~{I} got accepted to {school}"),
    "home": ("{I} {live|lives} in {city}", "{I} {am|is|are} from {city}", "~{I} moved to {city}",
             "~{I} just moved to {city} last month", "{I} {am|is|are} based in {city}", "~{I} {am|is|are} moving to {city}",
             "{I} grew up in {city}", "~{I} bought a house in {city}", "{I} {rent|rents} a flat in {city}",
             "{I}'ve lived in {city} for years", "{city} based", "~{I} relocated to {city} for work"),
    "family": ("{I} {have|has} a {rel}", "~{I} got married", "~{I} got engaged", "~{I} broke up with my {rel}",
               "{my} {rel} is a {job}", "{I} {have|has} two kids", "~{I} just had a baby", "{I} {am|is|are} married",
               "{I} {live|lives} with my {rel}", "~{I} got divorced", "{my} wife works at {company}",
               "{I} {am|is|are} an only child", "{I} {have|has} a boyfriend", "{my} daughter just started school",
               "~{I} {am|is|are} seeing someone new", "{my} parents live in {city}"),
    "pet": ("{I} {have|has} a {pet}", "{my} {pet} is called {petname}", "~{I} adopted a {pet}", "{I} {have|has} two {pet}s",
            "{my} {pet} {petname} is the best", "~{I} just got a {pet} puppy", "{I}'ve had my {pet} for 5 years",
            "~{my} {pet} passed away", "{I} {own|owns} a {pet} named {petname}", "dog mom to a {pet}"),
    "health": ("{I} {am|is|are} allergic to {allergen}", "{I} {have|has} a {allergen} allergy", "{I} {have|has} {illness}",
               "{I} can't eat {allergen}, allergic", "{allergen} gives me hives", "{I} {am|is|are} lactose intolerant",
               "~{I} {was|was|were} diagnosed with {illness}", "{I} {am|is|are} vegetarian", "{I} {am|is|are} vegan",
               "{I} {am|is|are} pregnant", "{I} {am|is|are} on blood pressure meds", "{I} {have|has} a {illness} flare-up",
               "{I} {am|is|are} gluten free", "{I} {am|is|are} recovering from knee surgery",
               "{allergen} and I don't get along, allergic", "{I} {am|is|are} severely allergic to {allergen}"),
    "like": ("{I} {love|loves} {hobby}", "{I} {like|likes} {food}", "{I} {hate|hates} {food}", "{I} can't stand {food}",
             "{I} {am|is|are} obsessed with {hobby}", "~{I} got into {hobby} recently", "~{I} just started {hobby}",
             "{food} is my favorite", "{I} don't eat {food}", "{I} {am|is|are} a huge fan of {food}",
             "{I} {enjoy|enjoys} {hobby} on weekends", "{I} {am|is|are} really into {hobby}", "{I} never drink {food}",
             "{food} is the best thing ever", "~{I} picked up {hobby} this year", "{hobby} is my thing",
             "{I} {prefer|prefers} tea over {food}"),
    "habit": ("{I} {habit}", "{I} always {habit}", "{I} use {tool} for notes", "{I} {code|codes} in {tool}",
              "{I} use {tool} every day", "~{I} switched to {tool}", "{I}'ve been trying to {habit}",
              "{I} usually go to bed by 11", "{I} bike to work", "{I} track everything in {tool}",
              "{I} {habit} every day", "{I} {am|is|are} a night owl", "{I} {plan|plans} my week in {tool}",
              "~{I} started to {habit}", "{I} never miss a morning run"),
    "event": ("{I} {have|has} {event} {when}", "{I} signed up for {race}", "{I} {am|is|are} running {race} {when}",
              "{I} {take|takes} {exam} {when}", "{I} registered for {exam}", "{I} {fly|flies} to {city} {when}",
              "{I} {am|is|are} going to {city} {when}", "{my} birthday is {when}", "{I} booked {event} for {when}",
              "{I} {am|is|are} getting married {when}", "{I} {am|is|are} studying for {exam}, it's {when}",
              "{I} entered {race} {when}", "{I}'ve got {event} {when}", "{exam} is {when} for me"),
    "opinion": ("{I} think {topic} is great", "{I} think {topic} is overrated", "{I} {am|is|are} against {topic}",
                "{I} {support|supports} {topic}", "honestly {topic} is a waste of money", "{I} {find|finds} {topic} boring",
                "{topic} is the future imo", "{I}'m not a fan of {topic}"),
}

DENY: dict[str, tuple[str, ...]] = {
    "name": ("I'm not {name}", "don't call me {name}", "my name isn't {name}"),
    "work": ("{I} didn't quit", "{I} {do|does} not work at {company}", "{I} {am|is|are} not a {job}",
             "{I} didn't get the job", "{I} {am|is|are} not changing jobs", "{I} never worked at {company}"),
    "study": ("{I} didn't get into {school}", "{I} never went to {school}", "{I} {am|is|are} not studying {major}"),
    "home": ("{I} didn't move", "{I} don't live in {city}", "{I} {am|is|are} not from {city}", "{I} never lived in {city}"),
    "family": ("{I} {am|is|are} not married", "{I} don't have kids", "{I} don't have a {rel}", "{I} {am|is|are} single"),
    "pet": ("that {pet} isn't mine", "{I} don't have a {pet}", "the {pet} is my cousin's, not mine",
            "{I} {am|is|are} just dog-sitting, not my {pet}"),
    "health": ("{I} {am|is|are} not allergic to {allergen}", "{I} don't have {illness}", "{I} {am|is|are} not pregnant",
               "no allergies here"),
    "like": ("{I} don't really mind {food}", "{I} {am|is|are} not into {hobby} anymore, never was"),
    "habit": ("{I} don't use {tool}", "{I} never {habit}"),
    "event": ("{I} didn't sign up for {race}", "{I} {am|is|are} not taking {exam} {when}", "{I} {am|is|are} not going to {city}"),
    "opinion": ("{I} never said {topic} was bad",),
}

ASK: dict[str, tuple[str, ...]] = {
    "name": ("what's your name?", "how should we call you", "is {name} your real name?"),
    "work": ("where do you work?", "what do you do for a living", "did you change jobs?", "does {name} still work at {company}?",
             "are you still at {company}?"),
    "study": ("what are you studying?", "where did you go to school", "are you at {school}?"),
    "home": ("where do you live?", "where are you from", "did you move?", "are you in {city} now?"),
    "family": ("are you married?", "do you have kids?", "how's your {rel}?"),
    "pet": ("is that your {pet}?", "what's your {pet}'s name?", "do you have pets?"),
    "health": ("are you allergic to {allergen}?", "can you eat {food}?", "feeling better?"),
    "like": ("do you like {hobby}?", "anyone into {hobby}?", "who likes {food}?"),
    "habit": ("what do you use for notes?", "do you {habit}?", "anyone use {tool}?"),
    "event": ("are you running {race}?", "when is your {exam}?", "anyone going to {city} {when}?"),
    "opinion": ("what do you think of {topic}?", "thoughts on {topic}?"),
}

HYPOTHETICAL: tuple[str, ...] = ("if {S}", "I wish {S}", "imagine if {S}", "what if {S}", "someday maybe {S}", "if only {S}",
                "I'd love it if {S}", "I dreamt that {S}", "thinking about whether {S}", "hopefully {S} one day")
JOKE: tuple[str, ...] = ("{S} lol jk", "{S}, just kidding", "{S} (not really)", "in my dreams {S}", "{S} haha as if", "{S} /s",
        "{S}... said no one ever")
REPORT: tuple[str, ...] = ("{name} said {S}", "{name} told me {S}", "he said \u201c{S}\u201d", "she says {S}", "apparently {S}",
          "someone said {S}", "the email says {S}", "rumor is {S}")
CORRECT: tuple[str, ...] = ("no wait, it's {when}", "sorry, I meant {when}", "correction: {S}", "actually no, {city}",
           "my bad, it's {company} not the other one", "oops, {when} not {when}", "wait I mean {S}")

NONE: tuple[str, ...] = ("lol", "hahaha", "ok", "thanks!", "good morning", "gn", "[image]", "[sticker]", "anyone here?", "same",
        "nice", "omg", "lmao", "see you tomorrow", "this link is broken", "anyone up for a game?", "is it raining",
        "let's grab dinner friday", "wifi is so slow", "+1", "true", "fair enough", "brb", "on my way", "just saw this",
        "what time is it", "congrats!", "happy birthday!", "good luck on the exam", "the file is in the drive",
        "meeting moved to 3", "vote link above", "who can help with this", "any update?", "haha same", "agreed",
        "that's wild", "no way", "see above", "noted", "sounds good", "cool cool", "welcome!", "ugh mondays",
        "so true", "we should do this again", "did everyone get the email", "pinned", "this is hilarious",
        "bring an umbrella", "long time no see", "anyway", "ikr", "yikes", "wow", "oh nice",
        # what someone is doing now, not what holds
        "just had {dish} for lunch", "ordered {dish}", "so tired today", "stuck in traffic", "running late",
        "I'll bring my laptop", "I can't make it this week", "on my way home", "just got home", "in a meeting, brb",
        "this homework is killing me", "the exam questions were brutal", "it's freezing in {city} today",
        "just finished a run, exhausted", "grabbing coffee, anyone want some?", "I'll be there in 5",
        "agree with {name}", "just ran into {name}", "we still need to book the court", "long day at work",
        "a new {shop} opened downstairs", "I had {dish} yesterday", "I'm off today", "I'm at the {shop}",
        "I'll be late", "I overslept", "I'm starving", "I brought snacks", "I'm heading out", "I'm on call tomorrow")

# ---- more phrasings (issue 44 §1, second round): appended, so the earlier templates keep their split
_MORE_STATE: dict[str, tuple[str, ...]] = {
    "name": ("name's {name}", "people call me {name}", "hey all, {name} here", "I'm {name}, nice to meet everyone",
             "{name} is my nickname", "please call me {name}", "you can just say {name}", "it's me, {name}"),
    "work": ("{I} {am|is|are} a {job} at {company}", "{I}'m with {company} now", "{I} {do|does} {job} work for {company}",
             "~{I} started at {company} last week", "~{I} took the job at {company}", "~{I} accepted an offer from {company}",
             "~{I} left {company} for {company}", "~{I} quit {company} and joined {company}", "{I}'ve been a {job} for ten years",
             "{I} {pick|picks} up shifts as a {parttime}", "{I} {work|works} nights as a {parttime}", "{my} day job is {job}",
             "~{I} got fired last week", "~{I} {am|is|are} between jobs right now", "{I} {am|is|are} self-employed",
             "{I} {manage|manages} a team at {company}", "~starting at {company} on monday", "{I} {am|is|are} a {job} by trade",
             "{I} {work|works} for {company} remotely", "~{I} switched teams, {am|is|are} a {job} now", "currently at {company}",
             "{I} {do|does} some {parttime} work on the side", "~{I} retired last year", "{I} {teach|teaches} at {school}"),
    "study": ("{I}'m a {major} major", "{I} {am|is|are} studying {major}", "{I} {go|goes} to {school}",
              "~{I} start at {school} in the fall", "{I} {am|is|are} a grad student at {school}", "{I} {did|did|did} my masters at {school}",
              "~{I} just finished my degree", "{I} {am|is|are} taking an online course in {major}", "{I} {am|is|are} a senior at {school}",
              "~{I} got my acceptance letter from {school}", "{I} {am|is|are} doing a bootcamp in {major}"),
    "home": ("{I} {am|is|are} in {city} these days", "{I} {live|lives} near {city}", "{I} {call|calls} {city} home",
             "~{I} just relocated to {city}", "~{I} {am|is|are} moving back to {city}", "{I} {am|is|are} a {city} native",
             "{I} {have|has} lived in {city} all my life", "~{I} moved out of {city} last year", "{I} {own|owns} a place in {city}",
             "~{I} found an apartment in {city}", "born and raised in {city}", "~{I} {am|is|are} relocating to {city} in the spring"),
    "family": ("{my} {rel} lives in {city}", "{my} {rel} works at {company}", "{my} {rel} is a {job}", "{I} {have|has} three kids",
               "{I} {am|is|are} engaged", "~{I} {am|is|are} expecting a baby", "{my} {rel} just started college",
               "{I} {have|has} a twin {rel}", "{my} husband is a {job}", "{I}'ve been married for ten years",
               "~{I} {am|is|are} getting married next year", "{my} kids are in middle school", "~{I} split up with my {rel}",
               "{my} {rel} is from {city}"),
    "pet": ("{I} {have|has} a {pet} named {petname}", "{my} {pet} is {petname}", "~{I} rescued a {pet}", "{I} {am|is|are} a {pet} person, have two",
            "{petname} is {my} {pet}", "~{I} brought home a {pet} last week", "{my} {pet} is 5 years old", "{I} {foster|fosters} {pet}s",
            "{I} {have|has} a senior {pet}"),
    "health": ("{I} {am|is|are} allergic to {allergen} btw", "{I} {react|reacts} badly to {allergen}", "{I} {have|has} celiac",
               "{allergen} allergy here", "{I} {am|is|are} diabetic", "{I} {have|has} had {illness} since I was a kid",
               "~{I} just got diagnosed with {illness}", "{I} {am|is|are} on a keto diet", "{I} don't drink alcohol",
               "{I} {carry|carries} an inhaler for my {illness}", "{I} {am|is|are} intolerant to {allergen}", "{I} {wear|wears} glasses",
               "{I} {am|is|are} pescatarian", "{I} {break|breaks} out in hives from {allergen}"),
    "like": ("{I} {adore|adores} {food}", "{I} {am|is|are} a big {hobby} person", "{I} can't get enough of {food}",
             "{I} {am|is|are} not a fan of {food}", "{I} {despise|despises} {food}", "~{I}'ve been getting into {hobby}",
             "{hobby} is my favorite hobby", "{I} {spend|spends} every weekend {hobby}", "{I} {love|loves} {food} so much",
             "~{I} took up {hobby} last month", "{I} {am|is|are} crazy about {hobby}", "{I}'d pick {food} over anything",
             "{food} is gross, {I} never eat it", "{I} {am|is|are} hooked on {hobby}"),
    "habit": ("{I} {habit} most days", "{I} {am|is|are} an early riser", "{I} {keep|keeps} my notes in {tool}",
              "{I} {do|does} everything in {tool}", "~{I}'ve switched over to {tool}", "{I} {habit} before work",
              "{I} {write|writes} all my code in {tool}", "{I} {habit} every weekend", "{I} {am|is|are} in bed by 10 every night",
              "{I} {walk|walks} the dog every morning", "{I} {habit} three times a week", "{I} {budget|budgets} everything in {tool}",
              "~{I} started to {habit} this year", "{I} {am|is|are} a {tool} user"),
    "event": ("{I} {have|has} a {race} {when}", "{I} {am|is|are} doing {race} {when}", "{I} {am|is|are} sitting {exam} {when}",
              "{I} {have|has} {exam} {when}", "{I}'ll be in {city} {when}", "{I} {am|is|are} off to {city} {when}",
              "{I} {have|has} {event} scheduled {when}", "{I} signed up for {race} {when}", "{I} {am|is|are} flying out to {city} {when}",
              "{I} {am|is|are} having {event} {when}", "{my} {event} is {when}", "{I} booked a trip to {city} {when}",
              "{I} {am|is|are} registered for {exam} {when}", "{I} {am|is|are} moving {when}"),
    "opinion": ("{I} honestly think {topic} is a scam", "{topic} is underrated, {I} love it", "{I} {am|is|are} all for {topic}",
                "{I} {believe|believes} {topic} won't last", "{I} {am|is|are} skeptical of {topic}", "{topic} is overhyped imo",
                "{I} really {like|likes} {topic}", "{I} {think|thinks} {topic} is a bad idea", "imo {topic} is worth it",
                "{I} {hate|hates} {topic} tbh"),
}
STATE = {kind: items + _MORE_STATE.get(kind, ()) for kind, items in STATE.items()}

_MORE_DENY: dict[str, tuple[str, ...]] = {
    "name": ("nah I'm not {name}, wrong person",),
    "work": ("{I} never applied to {company}",
             "{I} didn't get fired", "{I} don't work in {job}"),
    "study": ("{I} didn't go to college", "{I} {am|is|are} not a student", "{I} never studied {major}"),
    "home": ("{I} {am|is|are} not moving", "{I} never moved to {city}", "{I} {am|is|are} not in {city}"),
    "family": ("{I} {am|is|are} not engaged", "{I} never had a {rel}", "{I} {am|is|are} not seeing anyone", "{I} don't have a boyfriend"),
    "pet": ("{I} don't have pets", "that {pet} belongs to my neighbor", "{I} {am|is|are} just pet-sitting for a friend",
            "not my {pet}, it's my coworker's", "{I} don't own a {pet}, just visiting"),
    "health": ("{I} {am|is|are} not allergic to anything", "{I} don't have any allergies", "{I} {am|is|are} not sick, just tired"),
    "like": ("{I} never said I liked {food}", "{I} never claimed to like {hobby}"),
    "habit": ("{I} never use {tool}", "{I} don't {habit}"),
    "event": ("{I} {am|is|are} not going to {event} {when}", "{I} didn't register for {exam}"),
    "opinion": ("{I} don't hate {topic}",),
}
DENY = {kind: items + _MORE_DENY.get(kind, ()) for kind, items in DENY.items()}

_MORE_ASK: dict[str, tuple[str, ...]] = {
    "name": ("what should we call u", "what's ur name again", "is it {name} or something else"),
    "work": ("where u working now", "u still at {company}", "what's your job these days", "did {name} quit",
             "are you a {job}", "how's the new job at {company}", "who do you work for"),
    "study": ("what's ur major", "which school did you go to", "are u still in school", "is {name} at {school}"),
    "home": ("where u based", "which city are you in", "did you move to {city} or not", "does {name} live in {city}"),
    "family": ("u married", "do u have siblings", "how old are your kids", "is {name} seeing anyone"),
    "pet": ("do u have a {pet}", "whose {pet} is that", "what breed is your {pet}"),
    "health": ("any allergies", "are u allergic to {allergen} or not", "can {name} eat {food}", "is {name} ok"),
    "like": ("u like {food}", "anyone else love {hobby}", "do you even like {hobby}"),
    "habit": ("what do u use for todo lists", "do you still {habit}", "anyone here use {tool}"),
    "event": ("when's ur {exam}", "u doing {race} {when}", "is {name} going to {city} {when}", "who's going {when}"),
    "opinion": ("how do u feel about {topic}", "is {topic} worth it", "anyone tried {topic}"),
}
ASK = {kind: items + _MORE_ASK.get(kind, ()) for kind, items in ASK.items()}

HYPOTHETICAL += ("if I were you {S}", "would be nice if {S}", "I want to be able to say {S}", "maybe someday {S}",
                 "one day {S}", "if I could {S}", "I hope {S}", "what would happen if {S}", "pretend {S}",
                 "I'm thinking maybe {S}", "in another life {S}", "I'd kill for a world where {S}")
JOKE += ("{S} lmao no", "{S}, yeah right", "{S} (I wish)", "{S} haha kidding", "{S}... not", "{S} in my dreams lol")
REPORT += ("my {acq} said {S}", "my {rel} says {S}", "I heard {S}", "{name} mentioned {S}", "word is {S}",
           "my {acq} told me {S}", "the article says {S}", "according to {name}, {S}", "my {acq} was like \u201c{S}\u201d")
CORRECT += ("sorry typo, {city}", "I meant {when}, not {when}", "correction, {S}", "ugh autocorrect, {company}")
NONE += ("wanna hike saturday", "who's in for tonight", "are we still on for {when}", "dinner {when}?", "event's canceled",
         "anyone got a {tool} invite", "any good {hobby} tutorials", "this {dish} place is good", "I'm dead", "bruh",
         "lmaooo", "help", "nope", "yesss", "going to sleep", "so sleepy", "same here lol", "meh", "whatever works",
         "depends", "we'll see", "talk later", "just got off work", "nice weather today", "meet at 8 tomorrow",
         "don't forget the homework", "thanks boss", "you're a legend", "big W", "I'm done", "{name}'s pics are great",
         "this video lol", "package still not here", "couldn't get tickets again", "send me the link", "np",
         "makes sense", "good point", "oh I see", "long meeting today", "what's for lunch", "elevator's broken again",
         "jealous", "got it", "gotta run", "let's talk tomorrow", "rest up everyone", "happy new year", "any plans this weekend",
         "does anyone know {tool}", "lol what", "wait what", "can't believe it")

# asking someone (a member, the bot) to do something is no statement about anyone
REQUEST: tuple[str, ...] = (
    "@{name} can you rename the group", "@{name} what's the weather tomorrow", "summarize the chat above pls",
    "@{name} remind me to submit the form", "{name} can you grab me a {food}", "can someone book a table at the {shop}",
    "@{name} translate this", "can anyone look at this error", "@{name} recommend some books", "note down friday's meeting",
    "{name} could you pick up my package", "@{name} tell us a joke", "help me split the bill", "@{name} send the file again",
    "pls fill in the survey", "@{name} draft a sick note for me",
)
# a dislike is asserted ("I don't eat cilantro" states a diet), said in the ways a denial is said
DISLIKE: tuple[str, ...] = ("{I} can't stand {food}", "{I} don't eat {food}", "{I} can't do {food}", "{food}? {I} hate it",
                            "{I} never touch {food}", "{I} don't drink {food}", "{I} can't eat {food}, hate the taste",
                            "{food} is a no from me")
