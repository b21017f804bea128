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

HYPOTHETICAL = ("if {S}", "I wish {S}", "imagine if {S}", "what if {S}", "someday maybe {S}", "if only {S}",
                "I'd love it if {S}", "I dreamt that {S}", "thinking about whether {S}", "hopefully {S} one day")
JOKE = ("{S} lol jk", "{S}, just kidding", "{S} (not really)", "in my dreams {S}", "{S} haha as if", "{S} /s",
        "{S}... said no one ever")
REPORT = ("{name} said {S}", "{name} told me {S}", "he said \u201c{S}\u201d", "she says {S}", "apparently {S}",
          "someone said {S}", "the email says {S}", "rumor is {S}")
CORRECT = ("no wait, it's {when}", "sorry, I meant {when}", "correction: {S}", "actually no, {city}",
           "my bad, it's {company} not the other one", "oops, {when} not {when}", "wait I mean {S}")

NONE = ("lol", "hahaha", "ok", "thanks!", "good morning", "gn", "[image]", "[sticker]", "anyone here?", "same",
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
