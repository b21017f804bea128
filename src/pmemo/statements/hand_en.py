"""English group-chat messages written by hand, with their labels (issue 44 §1, fourth round).

Whole messages as members of QQ/WeChat/WhatsApp/Discord groups type them (students, office
workers, parents, gamers, hobby clubs), not templates: written for this round from how people
talk, without the phrasing set's files in view. One message a line, ``labels | text``; the labels
are one per clause as ``clauses`` cuts the message, in the notation of ``hand`` (``work``,
``home.r+``, ``pet:q``, ``work!``, ``-``); ``{name}`` marks a chat member's name.
"""

# statements: the speaker's, a named member's, a relative's, with the chatter around them
STATEMENTS = """
name;- | hi all, I'm Rachel, just joined from the Tuesday climbing group
name;- | hey everyone, name's Tom, new here
name | I'm Priyanka but everyone calls me Pri
name | call me Dee, nobody uses Deandra
-;name | new to the server, I go by Nightowl but my real name is Marcus
name | I'm Jess, Lily's mom from the 2nd grade class
work;name | hi, I'm the new designer on the web team, Omar
name | just so you know my legal name is Alexander but I go by Sasha
name.n | {Mike}'s full name is Michael Okafor btw
name.n | {Jen} goes by JJ at work
name+;name | I changed my name after the wedding, I'm Sarah Kim now
name;habit | heya, Luca here, I run the Thursday board game night
home | I live in Brooklyn, near Prospect Park
home | I'm in Austin
home+ | just moved to Seattle last month
home+ | we finally moved into the new place in Leeds
home | I'm from Lagos originally
home | born and raised in Manila
home | I live with two roommates in a tiny flat in Camden
home+ | moving to Berlin in March for good
home | I'm based in Toronto, EST timezone
home | I still live with my parents tbh
home.r | my parents live in Florida now
home.r | my sister lives in Dublin
home.n | {Dave} lives right around the corner from me
home.n+ | {Aisha} moved to Chicago
home | we live out in the suburbs, like 40 min from downtown
home+ | I moved back home to Ohio
home | I'm in the UK so I'm usually asleep when you guys are online
home.r | my grandma lives in a care home in Kent
home | I grew up in Cape Town
home | I rent a studio downtown
work | I work at Amazon, in logistics
work | I'm a nurse in the ER
work | I teach high school chemistry
work | I'm a software engineer at a fintech startup
work+ | I got the job!! starting at Spotify next month
work+ | I quit my job today
work+ | got laid off this morning
work;- | I'm an accountant, so tax season is hell
work | I work nights at a warehouse
work | I drive for Uber on weekends
work | I'm a freelance illustrator
work | I run a small bakery
work+ | I got promoted to senior manager
work | I'm a paralegal
work | I'm a vet tech
work | I do IT support for the school district
work+ | I start my new job at Deloitte on Monday
work+ | I handed in my notice
work | I work remote for a company in Denver
work | I'm a stay at home dad
work;- | I work in retail, so weekends are busy
work | I'm a civil engineer
work | I'm a barista at a coffee shop downtown
work.r | my wife works at the hospital
work.r | my dad's a mechanic
work.r | my brother works for Google
work.n | {Mike} works at Tesla
work.n | {Jen} is a dentist
work.n+ | {Sam} just started at Microsoft
work | I'm a PhD student and a TA
work | I manage a team of 6 at a bank
work | I'm between jobs right now
work+ | I'm retiring at the end of the year
work | I'm a firefighter
work.r | my husband is in the army
study | I'm a sophomore at UCLA
study | I'm studying nursing
study | I'm doing a master's in data science
study | I'm in my final year of law school
study+ | I got into Stanford!!
study | I'm learning Japanese, aiming for N3
study | I'm taking night classes in accounting
study | I'm doing a coding bootcamp
study+ | I just graduated
study | I'm studying for the bar exam
study.r | my son is in 3rd grade
study.r | my daughter just started college
study.r | my kid goes to Lincoln Elementary
study.n | {Aisha} is doing her PhD at Oxford
study | I'm learning guitar
study | I'm a high school senior
study+ | I switched my major to CS
study | I'm taking driving lessons
study | I'm doing my thesis on coral reefs
study.r | my little brother is in med school
family | I'm married, two kids
family | I have a 3 year old and a newborn
family+ | I just got engaged!!
family | we're expecting our first baby in June
family | I'm an only child
family+ | my girlfriend and I broke up
family | I'm divorced
family | I've got three older sisters
family | I'm a single mom
family+ | I got married last weekend
family | I have a twin brother
family.n | {Dave} has two daughters
family.n | {Jen} is pregnant
family.r | my sister just had a baby boy
family | I have a boyfriend, we've been together 4 years
family | my wife is Brazilian
family | I'm a grandpa now
family | I live alone
pet | I have a golden retriever named Bruno
pet | I've got two cats
pet+ | we adopted a rescue dog last week
pet | I have a bearded dragon
pet | my cat's name is Pickles
pet | I keep chickens in the backyard
pet+ | my dog passed away last month
pet.r | my parents have a parrot
pet.n | {Sam} has a husky
pet | I have a fish tank with like 20 guppies
pet | our dog is 14 now
pet | I foster kittens for the local shelter
health | I'm allergic to peanuts
health | I'm lactose intolerant
health | I'm vegan
health | I'm vegetarian, but I eat fish
health | I have type 1 diabetes
health | I have celiac so no gluten for me
health | I don't eat pork
health | I don't drink alcohol
health | I'm gluten free
health;- | I'm allergic to cats, sadly
health | I have asthma
health | I have a bad back
health | I'm pregnant!
health | I'm on a keto diet
health | I have ADHD
health | I can't eat shellfish
health | I quit smoking 2 years ago
health.r | my son has a nut allergy
health.r | my mom has Alzheimer's
health.n | {Mike} is allergic to bees
health | I'm doing intermittent fasting
health | I have migraines pretty often
health | I'm sober, 3 years now
health | I'm recovering from knee surgery
health | I wear hearing aids
like | I love hiking
like | I'm a huge Taylor Swift fan
like | I love spicy food
like | I'm obsessed with Elden Ring
like | I hate olives, always pick them off
like | I can't stand horror movies
like | I'm really into sourdough baking
like | I love anime, One Piece especially
like | I'm a big Arsenal fan
like | I'm a dog person
like | I love board games
like | I'm into rock climbing
like | I love cooking Thai food
like | I'm not a fan of seafood
like | I'm a coffee snob
like | I love true crime podcasts
like | I'm really into birdwatching
like | I collect vinyl
like | I play bass in a band
like | I love Stardew Valley
like | I'm into K-pop, mostly Seventeen
like | I love gardening
like | I hate running
like.r | my wife loves musicals
like.r | my kids are obsessed with Bluey
like.n | {Jen} loves sushi
like.n | {Dave} is really into fishing
like | pineapple on pizza is my favorite honestly
like | I play chess online a lot
like | I love thrift shopping
habit | I run every morning before work
habit | I go to the gym 4 times a week
habit | I bike to work
habit | I usually go to bed around 2am
habit | I use Obsidian for notes
habit | I'm on Android, Pixel 8
habit | I use a Mac at work
habit | I take the train in every day
habit | I don't use Facebook anymore
habit | I meditate every night
habit | I drink like 5 coffees a day
habit | I meal prep on Sundays
habit | I play on PC, not console
habit | I code in VS Code
habit | I journal every morning
habit | I walk the dog twice a day
habit | I work from home on Fridays
habit | I do yoga on weekends
habit | I read before bed every night
habit | I usually skip breakfast
habit.r | my dad swims every morning
habit.n | {Sam} always takes the 7:40 bus
habit | I play Wordle every morning
habit | I mostly shop at Aldi
event | I'm flying to Tokyo next week
event | I have a job interview tomorrow
event | my birthday is on the 14th
event | I'm getting surgery on Friday
event | I'm running the Chicago marathon in October
event | I have my driving test on Monday
event | I'm going to the Coldplay concert in August
event | I'm off next week for vacation
event | I'm getting married in June
event | I'm visiting my parents for Thanksgiving
event | I have a dentist appointment at 3
event | I'm defending my thesis next Thursday
event | I'm moving house on the 28th
event.r | my mom is coming to visit next week
event.r | my daughter's graduation is on Saturday
event.n | {Aisha}'s birthday is Sunday
event.n | {Mike} has his exam tomorrow
event | I'm taking the GRE in two weeks
event | I'll be in London for work from the 3rd to the 7th
event | I'm due in March
event | I'm on call this weekend
event | I'm doing a charity 10k on Sunday
event | I'm going to my cousin's wedding next weekend
opinion | I think remote work is way more productive
opinion | honestly I think the new update is worse
opinion | I think electric cars are overrated
opinion | I'm against homework for little kids
opinion | I think the sequel was better than the first one
opinion | personally I think college isn't worth it anymore
opinion | I think cats are easier than dogs
opinion | I'm pro four day work week
opinion.n | {Dave} thinks the housing market will crash
opinion | I think this restaurant is overhyped
opinion | I think Python is better for beginners
work;- | I work at a bank, the hours are brutal
work+;- | I start a new job next month, kinda nervous
home+;- | just moved to Denver, still unpacking lol
study.r;study | my sister is at uni in Leeds, doing medicine
pet;pet | I have a cat, her name is Mochi
work.n;work | {Mike} works at Google, on the Maps team
like;- | I love spicy food, the hotter the better
health;- | I'm allergic to shellfish, so team dinners are fun
event;- | I'm going to Bali next week, can't wait
family+;- | I got engaged last night, still shaking
study;- | I'm studying for the CPA, it's killing me
habit;- | I get up at 5 every day, you get used to it
pet+;- | we got a puppy, she chews everything
work+;- | passed my probation, finally
family.r;- | my brother just got married, his wife is lovely
health | heads up, I'm vegetarian so no steakhouse please
event | quick update, I'm out next week
home+ | good news, we bought a house!
work | been at the same company 8 years now, doing logistics
work | nurse here, night shifts mostly
study | 3rd year bio student
home | Chicago born and raised
like | big fan of the Lakers
health | can't do dairy unfortunately
habit | usually up by 6
event | got my driving test friday
work+ | starting at Meta on the 15th
pet | got a cat named Luna
health;- | allergic to penicillin, just so you know
family | mom of three here
work:c | wait no, I work at Oracle not Amazon
event:c | correction, my flight is on Wednesday not Tuesday
home:c | sorry I meant I live in Oakland, not Berkeley
name:c | typo, it's Jon without the h
event.n:r | {Jen} said she's flying to Paris on Friday
work.n:r | {Sam} told me he got the job at Apple
home.n:r | {Aisha} said she moved to Chicago
health.n:r | {Mike} mentioned he's allergic to bees
work | I'm a pharmacist at a CVS
work | I do payroll for a construction company
work+ | first day at the new job tomorrow, wish me luck
work | I'm a sous chef, so no weekends for me
work | I'm a data analyst at an insurance company
home | I live on a boat, actually
home+ | we just moved from Melbourne to Perth
home | I'm in Singapore, so GMT+8
study | I'm homeschooling my two youngest
study.r | my oldest just started kindergarten
family | I'm the youngest of five
family.r | my husband is from Korea
pet | I have two rabbits, Pip and Squeak
pet.r | my daughter has a hamster named Nugget
health | I'm allergic to latex
health | I'm diabetic so I carry snacks everywhere
health | I can't have caffeine after noon or I don't sleep
like | I'm a huge Formula 1 nerd
like | I love Brandon Sanderson books
like | I main Mercy in Overwatch
like | I'm really into crochet lately
habit | I swim laps three mornings a week
habit | I still use a paper planner
habit | I do my grocery shopping on Thursday nights
event | I'm getting my wisdom teeth out on Tuesday
event | I'm at a wedding in Napa this weekend
event.r | my son's recital is next Friday
opinion | I think the new boss is actually great
work;-;- | I'm a teacher, so summers off, don't hate me
pet;- | I have a cat named Biscuit, she's a menace
"""

# what states nothing about anyone here: questions, wishes, jokes, quotes, an acquaintance's or
# a stranger's fact, denials, small talk, media, the group's plans, requests to the bot
NEGATIVES = """
work:q | where do you work again?
work:q | u still at google
work:q | anyone here work in HR?
work:q | what do you do for a living
work:q | is your company hiring?
work:q | are you still at that startup
home:q | where do you live
home:q | anyone in the Bay Area?
home:q | which part of London are you in
home:q | did you move yet
study:q | what are you studying
study:q | what grade is your kid in
study:q | where did you go to school
pet:q | how old is your dog
pet:q | what breed is that
pet:q | does anyone have a cat sitter they trust
health:q | are you allergic to anything?
health:q | can you eat gluten
health:q | you're vegan right?
health:q | anyone know a good physio
like:q | what kind of music do you like
like:q | what games are you guys playing rn
like:q | do you like sushi
habit:q | what time do you usually get up
habit:q | what app do you use for notes
habit:q | do you drive to work or take the bus
event:q | when's your birthday
event:q | are you going to the conference next week
event:q | when do you fly out
family:q | are you married?
family:q | how many kids do you have
family:q | do you have a girlfriend
name:q | sorry what's your name again
name:q | who's the new person
opinion:q | what do you think of the new iPhone
opinion:q | is it worth buying an EV?
work:q | did you quit?
family:q | wait are you pregnant??
event:q | you still coming saturday?
study:q | when does your semester start
work:q | {Mike} where do you work now
home:q | {Jen} you still in Boston?
event:q | {Sam} when's your interview
pet:q | {Dave} what's your dog's name
health:q | {Aisha} you don't eat meat right
work:q | so you're a nurse?
home:q | you live near the stadium, right
work:h | if I worked at Google I'd never leave
work:h | wish I could quit and open a bookshop
home:h | I'd love to live in Lisbon someday
home:h | if I won the lottery I'd move to Hawaii
study:h | if I'd studied engineering I'd be rich by now
pet:h | I really want a dog but my landlord says no
pet:h | someday I'll get a corgi
family:h | I wish I had a sister
health:h | if I was allergic to coffee I'd die
like:h | wish I was good at basketball
event:h | I'd love to see the northern lights one day
event:h | if I get the time off I might go to Japan
work:h | in another life I'd be a chef
habit:h | I wish I could wake up early
habit:h | I should really start going to the gym
study:h | I keep saying I'll learn Spanish
work:h | imagine being paid to play video games
family:h | if I had kids I'd name them after Star Wars characters
home:h | dream is a cabin in the woods
event:h | maybe I'll go to the concert if tickets drop
like:h | I want to like running, I really do
work:j | I'm basically the CEO of naps
name:j | I'm Batman
work:j | my full time job is procrastinating
home:j | I live in the fridge at this point
family:j | my wife is Margot Robbie, we just haven't met yet
pet:j | I own a dragon, he does my taxes
health:j | I'm allergic to Mondays
health:j | I'm allergic to exercise lol
study:j | I have a PhD in overthinking
like:j | my hobby is lying down
event:j | I'm going to Mars next week, pack my bags
work:j;- | I got promoted, jk
event:j;- | moving to the Maldives, just kidding
work:j | I'm a professional couch tester
opinion:j | I think I should be president lol
name:j | call me the pizza king
work.o | my roommate works at Apple
work.o | my coworker just got fired
work.o | my friend is a nurse at St Mary's
home.o | my neighbor moved to Phoenix
study.o | my friend is doing law school
pet.o | my coworker has 4 cats
health.o | my best friend is allergic to gluten
like.o | my buddy is obsessed with golf
event.o | my friend's getting married next month
family.o | my boss has triplets
work.o | my old manager went to Netflix
habit.o | my roommate stays up till 4 every night
family.o | my friend just had a baby girl
study.o | a guy I know got into MIT
work.o | she works at a law firm
home.o | he lives in Jersey
study.o | his daughter is at Yale
pet.o | she has a pug
event.o | he's flying out tomorrow
health.o | I think she's vegetarian
work.o;- | you're a teacher, right? I remember that
work.o:r | my coworker said he's quitting next month
home.o:r | my friend told me she's moving to Austin
event.o:r | apparently the CEO is getting married
health.o:r | my mom's friend says she's allergic to shrimp
work:r | I read that Amazon is laying off again
work:r | the news says unemployment went up
event:r | the teacher said the field trip is on Tuesday
home:r;- | she posted "just moved to LA!!" on Insta
work:r | he tweeted "I quit my job today"
family:r | in the show she goes "I'm pregnant" and everyone freaks
work:r | saw a reddit post like "I've been at FAANG for 5 years AMA"
work!;- | I didn't change jobs, still at the same place
work! | I don't work at Amazon anymore lol
work!;- | no I'm not a doctor, that's my brother
home!;- | I didn't move, still in the same apartment
home!;- | I'm not from Texas, just went to school there
study! | I didn't get into grad school
study! | I'm not a student anymore
pet!;- | I don't have a cat, that's my friend's
pet!;- | that dog isn't mine, it's my neighbor's
health!;- | I'm not allergic, don't worry
family! | I'm not married
family! | I don't have kids
family!;- | I don't have a girlfriend, stop asking
like! | I'm not really into football
like! | I don't actually play games that much
habit! | I never go to the gym
event! | I'm not going to the wedding anymore
event! | I didn't sign up for the race
work!;- | I wasn't laid off, it was someone else on my team
name!;name | my name's not Chris, it's Kris with a K
opinion! | I don't think remote work is that great
work!;- | I never quit, that's a rumor
- | good morning everyone
- | lmao
- | ok
- | sounds good
- | night all
- | it's freezing today
- | finally friday
- | anyone eaten yet?
- | this meme is gold
- | same
- | agreed
- | +1
- | true
- | lol dead
- | can someone check this for me
- | [image]
- | [image] [image]
- | [voice message]
- | [video]
- | [file] agenda.pdf
- | [link] 50% off at this place
- | [sticker]
- | 😂😂😂
- | you there?
- | so quiet in here
- | have a good weekend all
- | stocks are down again
- | it's pouring outside, bring an umbrella
- | train's delayed again
- | boss is in a good mood today
- | this week flew by
- | had ramen for lunch
- | just got out of a meeting, exhausted
- | what's for dinner
- | traffic is insane
- | just finished it, the ending was meh
- | this video killed me
- | supposed to get cold tomorrow
- | my package got lost again
- | did anyone feel that earthquake
- | whose car is blocking the driveway
- | the movie was actually pretty good
- | food's here
- | stuck at work till 10
- | brb meeting
- | gonna grab a shower
- | I'm heading out
- | one sec
- | omw
- | grabbing a coffee
- | give me 5 min
- | just saw this
- | I'm on my way
- | gonna nap
- | I'm stuffed
- | sorry I'm late
- | gotta pick up the kids
- | I'm so tired today
- | just got to the office
- | my phone's about to die
- | let's all go hiking saturday
- | where are we doing dinner next week
- | anyone up for basketball this weekend
- | let's do a movie night
- | where should the team offsite be
- | team dinner friday, sign up in the sheet
- | the class trip is next Tuesday
- | raid at 8 tonight, who's in
- | court's booked for sunday 8am
- | reminder: HOA meeting this saturday
- | parents, please send a water bottle tomorrow
- | book club moved to sunday afternoon
- | vote on the dinner date pls
- | offsite tomorrow, meet at the lobby at 9
- | ride leaves 7am sunday
- | @bot remind me to call the dentist at 3
- | @assistant summarize today's chat
- | can you set a reminder for tomorrow 9am
- | hey bot
- | bot, what's the weather tomorrow
- | convert this to pdf pls
- | @everyone no practice tomorrow
- | anyone want to split an order
- | anyone driving to the airport?
- | looking for a good plumber, any recs
- | selling a used bike, DM me
- | got a spare ticket for saturday's show
- | does anyone have a charger I can borrow
- | please share, helping a friend
- | haha you're hilarious
- | you're right
- | good idea
- | wow that's expensive
- | omg
- | bruh
- | I can't
- | I'm dead
- | I'm crying
- | I knew it
- | I agree
- | I was thinking the same
- | I'll take a look
- | I'll try
- | I see
- | I don't mind
- | got it
- | my bad
- | I'm fine with whatever
- | thanks boss
- | thanks for organizing
- | let's gooo
- | happy birthday!! 🎂
- | happy new year
- | congrats!!
- | happy holidays
- | safe travels
- | get well soon
- | welcome to the group!
- | long time no see
- | {Mike} you there?
- | @{Jen} did you see this
- | thanks {Sam}!
- | {Dave} you legend
- | {Aisha} come online
- | happy birthday {Mike}
- | let's wait for {Jen}
- | where's {Dave}
- | this taco place is great, highly recommend
- | the sunset tonight was unreal
- | cat videos fix everything
- | anyone watch the game last night?
- | the Lakers lost again
- | this patch broke everything
- | the gacha rates are a joke
- | the new character is so broken
- | ranked is painful today
- | who's up for the dungeon tonight
- | need one more for the squad
- | disconnected, one sec
- | my teammates are throwing
- | gg
- | did everyone finish the homework
- | report's due tomorrow, don't forget
- | the exam topics are in the drive
- | so much homework this week
- | cafeteria food was awful today
- | library is packed
- | good luck on the exam everyone
- | morning parents, it's cold today, dress them warm
- | my kid has a fever, what do I do
- | a new grocery store opened by the gate
- | water's off tomorrow per the building manager
- | elevator's broken again
- | someone's dog is off leash downstairs
- | whose package is this
- | someone took my parking spot again
- | prices went up again at the market
work;-:q | I'm in finance, what about you guys?
-:q | anyone know how to fix this
-:q | is this real?
-:q | what time is it
-:q | are we working tomorrow
-:q | anything fun this weekend?
-:q | who has that spreadsheet
event:q | when do you leave
- | if it rains we'll move it to sunday
- | if you guys don't go I'm not going either
- | if we're late just grab an uber
- | if traffic's bad I'll be late
- | event's cancelled if it rains
- | I think that works
- | I don't think so
- | I think it's fine
- | I think you're right
- | I think he's just tired today
- | [image] look at this
- | [sticker] lmaooo
- | [video] my dog doing zoomies
- | anyone else's wifi down?
- | pizza or tacos tonight
like:q | anyone here into crochet?
work:q | does anyone know someone at Pfizer
pet.o | my sister-in-law's friend has a llama, wild
work:h | if I get fired I'm opening a food truck
health:j | allergic to adulting
- | we should do a potluck next month
- | let's plan a trip to the lake in July
- | who's bringing snacks sunday
- | reminder that dues are $20 this month
- | lol the group photo came out cursed
"""

# IM shapes the fourth round's candidate read as facts (fifth round, written for it without any
# eval set's lines in view): a cheer or a wish to a member ("@someone good luck on the exam"), a
# request to the bot with a taste in it ("@bot recommend…"), a passing state of the moment ("I
# can't carry all this alone"): none of them a fact of anyone. And a move said as leaving a city
# ("left Leeds last week"), a home change, not a job change, beside leaving a company; an
# @mention before the speaker's own fact ("@someone me too, I…") is the speaker's.
IM = """
- | @{Jen} good luck on the bar exam!!
- | {Sam} crush that interview tmrw 💪
- | go get em {Priya} 🍀
- | rooting for u {Marco} on ur driving test
- | @{Ben} break a leg tonight
- | fingers crossed for ur results {Aisha}
- | @{Lena} you got this, finals are nothing
- | good luck w the marathon {Kai} dont die lol
- | {Zoe} best of luck at the audition
- | @{Omar} nail that presentation
- | sending good vibes {Mike} for the thesis defense
- | @{Dave} hope the exam goes well
- | {Tom} u will ace it i know it
- | gl on the GRE {Jen}
- | @{Sam} safe travels man
- | have fun in Lisbon {Priya}!!
- | @{Marco} get some rest dude
- | {Ben} happy birthday 🎂🎉
- | feel better soon {Aisha} ❤️
- | @{Lena} good luck with the surgery tmrw, thinking of u
- | {Kai} go smash that PR
- | ur gonna do great {Zoe}
- | @{Omar} congrats!! drinks on u
- | good luck to everyone taking the SAT tomorrow
- | all the best for ur exams guys
- | @{Mike} knock em dead
- | {Dave} stay strong this week 🙏
- | @{Tom} hang in there buddy
- | cheering for u {Jen} from the couch
- | {Sam} dont stress, ull be fine
- | @bot recommend some lofi for studying
- | @assistant any good podcasts for a long drive
- | hey bot find me a chill playlist for focus
- | @bot suggest a dinner recipe without dairy
- | @bot what should i watch tonight, something funny
- | @helper pick a lunch spot near the office for friday
- | bot pls suggest background noise that helps me focus
- | @assistant recommend a beginner yoga routine
- | @bot give me a 20 min workout i can do at home
- | @ai suggest a book for my commute
- | @bot play some rain sounds
- | @assistant what's a good gift for my girlfriend
- | @bot find a quiet cafe to work from
- | hey assistant recommend a board game for 6 people
- | @bot tell me a joke
- | @bot translate this to spanish pls
- | @assistant any vegan restaurants around here
- | @bot recommend a sci fi show like the expanse
- | @bot whats the weather in boston tmrw
- | @helper suggest some music for a dinner party
- | @bot i wanna learn guitar, where do i start
- | @assistant give me a meal plan for the week
- | @bot recommend a running app
- | @bot some white noise for sleeping pls
- | @assistant suggest a weekend trip from here
- | yo bot pick a movie for tonight
- | @bot recommend a podcast about history
- | @assistant draft a sick day email for me
- | @bot which laptop should i get for coding
- | @bot remind me to water the plants at 6
- | I can't carry all these boxes by myself
- | my arms are dead from moving furniture lol
- | im so full i cant move
- | I'm freezing in this office rn
- | can't lift this thing alone, someone help
- | my legs are jelly after that hike
- | I'm soaked, forgot my umbrella
- | I'm too tired to cook tonight
- | my hands are full, call u back
- | I'm starving
- | im stuck in traffic again
- | as a girl i can't carry 4 water jugs up the stairs alone
- | I'm sweating buckets out here
- | my eyes hurt from staring at the screen all day
- | I'm locked out of my apartment, waiting for the landlord
- | I'm half asleep, ask me later
- | im dying of laughter
- | my back is killing me after that flight
- | I'm so sunburnt lol
- | I lost my voice screaming at the game
- | im shaking, that movie was scary
- | I can't reach the top shelf, someone tall pls
- | I'm running late, 10 min
- | I'm covered in flour rn, brb
- | im still jetlagged
- | my phone is at 2%
- | I'm home alone and a bit spooked
- | I overslept and missed the bus
- | I'm too short for this ride lol
- | i cant open this jar, help
home+ | left Leeds last week
home+ | I left Chicago last month, living in Madison now
home+ | finally moved out of NYC
home+ | we left Sydney for good
home+ | packed up and left Denver on Friday
home+;home | said goodbye to Austin, I'm in Portland now
home.n+ | {Aisha} left London last week
home+ | i left toronto in march
home+;home | just left Dublin, back in Cork now
home+ | I'm out of LA now, moved back to Phoenix
home+ | relocated from Berlin to Munich
home+ | moved away from Seattle last week
home+;- | left Houston a week ago, still unpacking
home.n+ | {Mike} moved out of Boston, he's in Providence now
home+ | we left the city and moved to a small town upstate
home+ | I left Glasgow after 6 years
home+ | left Nashville last week, im in Atlanta now
home+ | we finally left Phoenix, too hot
home.n+ | {Sam} left Edinburgh in the summer
home+ | i moved out of Brighton last weekend
home+ | left Oakland after the lease ran out
home+ | bye Manchester, moved to Bristol on Sunday
home+ | we left the Bay Area last month
home+ | I'm no longer in Vancouver, moved to Calgary
home.n+ | {Jen} left Melbourne and moved back to Perth
home+ | got out of Miami last week lol, Orlando now
work+ | I left Microsoft last Friday
work.n+ | {Sam} left his job at the bank
work+ | left Deloitte last week
work+ | I left my job at Amazon
work+ | quit Shopify and joined a startup
work.n+ | {Dave} left Google last month
- | just left the hotel, heading to the airport
- | we left Paris yesterday, flying home now
event | I'm in Denver for a conference next week
-;health | same as {Jen}, I'm allergic to cats
-;like | @{Sam} me too, I love bouldering
work | @{Mike} I'm also a nurse
home | @{Dave} I live in that neighborhood too
pet | {Aisha} we have a corgi too
habit | @{Priya} I also run every morning
study | @{Marco} I study law too
health | like {Ben} I can't eat gluten
family | @{Lena} I have twin brothers too
pet:h | i really want a cat
pet:h | wish i could get a dog but my landlord says no
pet:h | so tempted to adopt a bunny
pet:h | one day im getting a husky
pet:h | i want a puppy so bad 😭
pet:h | would love to have a parrot someday
home:h | i'd love to live by the sea
home:h | dream is to move to Lisbon
work:h | i wish i worked somewhere with 4 day weeks
work:h | would kill for a remote job
study:h | kinda want to do a masters
event:h | i want to go to Japan so bad
like:h | really wanna learn to surf
family:h | i want kids someday
habit:h | wish i could wake up early like you guys
pet:h | seeing this makes me want a cat
"""

# the sixth round's lines (see hand_zh.SIXTH): frame families of our own for the kinds of miss set a
# showed, never its lines; company and app names often made up
SIXTH = """
work+ | quick update, I left Brightwave and I'm at a battery startup now
work+ | I switched companies, the new place is called Fernway
work+ | my last day at the old shop was Friday
work+ | I'm not at the hospital anymore, moved to a private clinic
work+ | starting at Northvale Health after the holidays
work+ | I quit to open a little guesthouse back home
work+;- | got laid off last week, taking a couple months off
work+ | I switched careers, doing UX research now
work+ | I went back to my old team at the county
work+ | signed the offer, I start at Quillbyte in March
work+ | I got moved from sales to marketing
work+ | officially retired as of this week
work+;- | I left Ardent Logistics, the hours were killing me
work+ | jumped ship from banking to a hedge fund
work+ | new job is ground crew at the airport
work | I pick up shifts at a coffee shop on weekends
work | I tutor high school math in the evenings
work | I do DoorDash after work for extra cash
work | I'm working part time at the campus library this summer
work | I'm a research assistant in a lab, it pays like nothing
work | my side hustle is editing photos
work | I help out at the farmers market on Saturdays
work.n | {Dana} coaches part time at the climbing gym
work.r | my mom volunteers at the food bank since she retired
habit | I do all my budgeting in YNAB
habit | I write everything in Google Docs
habit;- | I'm in bed by 10 every night, no exceptions
habit | I always shower first thing in the morning
habit | I follow Chloe Ting videos for workouts
habit | I take the train to work and do flashcards on the way
habit | I journal in a Leuchtturm notebook
habit | I cook from the NYT Cooking app mostly
habit | I edit all my videos in DaVinci
habit | I swim laps every Wednesday night
habit;- | I bike to the office three days a week, saves a ton
habit.n | {Priya} has a flat white every single morning
habit | I draw on Procreate
habit | my notes all live in Logseq
event | I signed up for the half marathon in October
event | I booked my road test for next Tuesday
event | I registered for the GRE in March
event;- | just paid the fee for the bar exam, it's in July
event | I'm taking my permit test Saturday
event | I entered a triathlon, it's in December
event | got my physical scheduled for Thursday
event | I joined the office pickleball tournament
event | I'm sitting the CPA exam in the fall
event.n | {Marcus} signed up for the trail race on Sunday
event.r | my son's in the city piano competition next month
event | I have a wedding to go to in Austin at the end of the month
event;- | I'm off on vacation from Monday, heading to Portugal
family | my partner's a nurse, we've been together three years
family | my other half is from Texas
family | my wife is two years younger than me
family;- | I have a boyfriend, long distance, we see each other monthly
family+ | we got married at city hall!
family+ | me and my ex are done for good, I'm single now
family | my in-laws live with us
family | I have an older brother in the navy
family | I've got two daughters, the oldest is in middle school
family.n | {Lena}'s husband drives a cab
family | my fiancée is from Ohio
family+ | I'm an uncle now, my sister had a baby boy
like | I got really into ultimate frisbee lately
like | I'm deep into pour-over coffee, bought way too much gear
like | I've been learning to bake bread
like | I started paddleboarding, first time on the water last week
like | I started running this year, 300 miles so far
like | I'm obsessed with building Lego sets lately
like | I picked up crochet and made a scarf
like.n | {Rosie} just started boxing classes
like | I love podcasts, especially history ones
like | I'm a huge fan of Thai food
like | I hate going out in the rain
like | cilantro is a hard no for me
health | mango makes my lips swell up
health | I can't touch shellfish, I break out in hives
health | I'm allergic to penicillin, always have to tell the nurse
health | cat hair is poison to me, I start sneezing right away
health;- | I'm lactose intolerant, milk wrecks me
health | I have asthma, always carry my inhaler
health | my stomach can't handle anything spicy
health | I'm a little anemic
health.r | my daughter is allergic to eggs
health.n | {Tom} is allergic to dust mites
health | I carry an EpiPen because of tree nuts
health | I don't eat red meat, never liked it
home | I live in Astoria now, close to work
home+ | we moved out to the suburbs
home | I live in company housing
home.n | {Greg} lives right by the subway station
study | I'm doing a part-time master's, classes on weekends
study+ | I got into the nursing program, starting in September
study | I'm learning Korean, just finished the alphabet
pet+ | we have a new bunny, her name is Cotton
pet | our border collie is almost ten
name | call me Bea, everyone does
name | my handle is nightowl but my real name is Zack
opinion | I think remote work is way more productive
opinion | honestly EVs are cheaper than gas cars in the long run
work:c | my bad, I'm at FedEx not UPS
event:c | correction, the race is Saturday not Sunday
home:c | I got it wrong, I'm in building 5 not 6
study:c | not Boston College, Boston University, typo
health:c | to be clear, it's shrimp I'm allergic to, not crab
family:c | I mixed it up, my brother is older than me not younger
work;- | I work at the hospital pharmacy, today was insane
work;- | I'm an accountant, month end is eating me alive
study;- | first year grad student, got roasted at my proposal today
health;- | I'm allergic to peanuts, almost ate one just now
pet;- | I have a samoyed, he destroyed a pillow today
- | worked till 10 tonight, starving
- | just got off work, the train is packed
- | had ramen for lunch
- | got pulled into another meeting today
- | waited an hour at the clinic this afternoon
- | my friend works at a bank and works late every day
- | my classmate signed up for the full marathon
- | my neighbor's dog is so aggressive
- | a coworker of mine is allergic to mango
- | heard the boss is getting replaced
work:q | are you still at that company
event:q | anyone signed up for the weekend tournament
health:q | weren't you allergic to shellfish
like:q | what are you into these days
habit:q | what app do you guys use for budgeting
work:h | it would be nice to work at a big tech company
event:h | once I lose the weight I'll sign up for a marathon
like:h | I'd love to try skiing, it's just so expensive
family:h | I wish I had an older sister
work!;- | I didn't quit, just took a few days off
health!;- | I'm not allergic, just have a cold
family! | I don't have a girlfriend, stop it
work:j | I'm the CEO of my couch, full time napping
- | anyone have a spare badminton racket I can borrow
- | Sunday 3pm, same place
- | don't forget to pay the club dues
- | lmaooo I'm dying
- | [image] this is from yesterday
- | has anyone been to Lisbon
work+ | I left Starfield Insurance, starting at Cedar Bank on Monday
work+ | I'm done at Orange Learning, joining a robotics company at the end of the month
work+ | I'm no longer at the design firm, went over to a real estate developer
work+ | just wrapped up my exit paperwork, I start at Tealbyte on the 15th
work+ | left my old job and opened a studio with a friend
work+ | quit the pharma job last month, I'm at the health department now
work | I work at a pet store, it's on Main Street
work | I'm a surveyor, mostly field work
work | I'm an orthodontist, braces all day
work | I'm a sports editor at the local paper
habit | I read for half an hour before bed, been doing it a year
habit | I do all my spreadsheets in Excel, old habits
habit | I always check Yelp before picking a restaurant
habit | I code in Neovim, way too many plugins
health | I'm diabetic, insulin every day
health | I'm red-green colorblind so charts are rough
health | I have a herniated disc so I can't sit long
health.r | my grandpa has a bad heart, he got a stent
pet | our cat is a calico, super shy
pet.r | my sister's golden retriever is eight now
opinion | I feel like smaller cities are way more livable
opinion | honestly a government job isn't that great
opinion | imo renting beats buying right now
opinion | I've always believed sleep beats any supplement
opinion | I reckon the Tube is easier than the NYC subway
opinion | I don't think kids should learn to code that early
family | my wife just called asking when I'm coming home
family | this weekend I'm meeting my boyfriend's parents
family | my husband won't let me buy new headphones
family | got an earful from my other half all night
family.r | my husband drives for a logistics company
family.r | my girlfriend studies law, she graduates next year
home | yeah, moved out to Queens last year
work | yes, still at the same hospital
study | yep, doing it part time, two year program
home | nah, I moved to Seattle ages ago
work | yeah I'm in insurance now
event.n | {Dana} has an interview in Chicago next week
event.n | {Marcus} is going to a college friend's wedding at the end of the month
event.n | {Lena} is getting posted overseas after new year
event.n | {Priya} just passed her CPA
event.n | {Tom} got a spot in next year's London marathon
event | I ran my first 10k yesterday
event | I finally got my driver's license last week
event | I'm off to a week of training in Denver next month
event;event:c | dentist on Friday, scratch that, it's Saturday
event;event:c | my interview is next Monday, I mean Tuesday
event:c | hold on, the defense moved to the 12th, not the 10th
work;work:c | I work at Honda, make that Toyota
home:c | typo, I live in Brooklyn not the Bronx
like | I started swimming lessons, I can do a length now
like | got into camping this year, bought all the gear
like | I'm learning watercolor lately
like.n | {Rosie} just started drum lessons
pet!;- | that scooter isn't mine, my cousin left it here
work!;- | I didn't build that, my mentor did
event:h | if I could drive I'd have done a road trip by now
- | if the bonus comes through I'll get a new phone
- | {Dana} you should try swimming
- | my mom says girls shouldn't stay up late
- | my dad says he's selling the old house next year
- | my roommate is obsessed with skateboarding lately
- | our office is moving to the new campus next month
- | my manager says there's a business trip next week
- | they took four tubes of blood at my physical today
- | worked overtime three days this week
-;-;study+;- | long day of meetings, brain is mush, oh btw I'm starting a master's in Toronto in Sept, will visit
-;work+;- | just got home dead tired, so anyway I'm switching jobs to Shopwell next month, 30% raise
-;health;- | slept badly again, turns out I'm allergic to dust mites, explains all the sneezing
-;event;- | did nothing this weekend, oh and I signed up for the Philly marathon in November, gotta train
-;family+;- | just finished dinner, announcement: I'm officially off the market, will introduce them soon
-;pet+;- | this rain is the worst, anyway we adopted a little black pup yesterday, super clingy
- | my cousin delivers packages in Phoenix, says he does 200 stops a day
- | my roommate signed up for the LSAT, she's up at 6 every day
- | the guy at the next desk is allergic to shellfish
- | my boss has two huge mastiffs
- | my best friend's boyfriend owns a gym
- | a classmate told me her company is doing layoffs again
- | new BBQ place opened downstairs, try it this weekend?
- | someone was handing out flyers at the station today
- | the 3pm meeting got pushed to 4
- | anyone know how to transfer a 401k
- | if it doesn't rain tomorrow let's go hiking
- | if you're free this weekend let's hit the museum
- | my coworker says she wants to learn scuba
- | my roommate says she's moving out next month
- | my buddy says he's quitting to be a cop
- | the latte at this place is not bad
- | my package got lost again, so annoyed
- | standup just ended, another pile of tickets
- | {Dana} you should try running
- | {Marcus} weren't you working in Boston last year
- | my sister's coworker works at a bank
- | is your company moving downtown
- | anyone know where to take swim lessons
- | the new intern apparently went to NYU
- | my boss says raises are coming at year end, yeah right
- | grabbed a boba on the way home
- | deep cleaned the whole apartment, I'm dead
- | perfect weather for a nap
- | the organizer says dinner next week is split evenly
- | can someone look at this error for me
- | supposedly the subway is coming out to our area next year
- | my friend's cat is missing, keep an eye out please
- | my aunt says her office is relocating
- | an ex coworker went to Meta, heard his pay doubled
- | my neighbor just got a puppy, it barks all night
- | saw a guy jogging with a parrot on his shoulder lol
- | my teammate is running the Chicago marathon
- | mom says I should call more often
- | does anyone here still use Evernote
- | if I win the lottery I'm never working again
- | the gym is closed for renovations all week
- | lol my manager thinks I'm a morning person
habit | moved my notes from Evernote to Bear, so much nicer
habit | just went from Android to iPhone, still getting used to it
habit | I traded my road bike for a gravel bike, way comfier
habit | I only run in Brooks, everything else gives me blisters
habit | got an ergonomic chair, my back is so much better
habit | I switched from Photoshop to Affinity for editing
like | I play guitar in a little band, we rehearse Saturdays
like | I've been playing go lately, 5 kyu on OGS
like | I'm hooked on bouldering, gym Wednesdays and Fridays
like | I sing bass in a choir, practice every Tuesday
health | I have gout so I'm skipping the BBQ tonight
health | I'm lactose intolerant so it's oat milk for me
health | I get hay fever every time the seasons change
opinion | I think daily standups are a waste of time
opinion | honestly six day work weeks are inhumane
opinion | I think starting a project with microservices is a trap
opinion | imo code review matters more than tests
- | my dad thinks I should move home and get a government job
- | my grandma still thinks I'm in college lol
- | my mom keeps saying I should get married
- | my cousin says med school is brutal, told me not to do it
- | my uncle thinks coding is a young man's game
- | my boss always thinks I have free time
- | field day got moved to next Wednesday, heads up
- | the team outing is Saturday, place TBD
- | finals schedule is out, starts December 20th
- | dinner is Friday night, final answer
- | my sister thinks I spend too much on coffee
- | my coworker says the new office has a rooftop
- | who's bringing snacks on Saturday
- | traffic on the bridge is insane right now
"""
