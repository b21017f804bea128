// A group-chat bot's memory loop with pmemo-client.
//
// For each incoming group message: store it (who said it, under the message id as the
// idempotency key, so a redelivered message is stored once), then ask for the context to
// answer with (who asks, the last few messages), then "reply". The reply here is a stand-in
// for your LLM call, which would get `ctx.text` in its prompt.
//
//   pmemo serve                                   # in another terminal
//   export PMEMO_API_KEY=$(pmemo keys create --tenant mybot | tail -n 1)
//   npm run build && node examples/group-bot.mjs   # PMEMO_URL defaults to http://127.0.0.1:8765
import { PMemo, PMemoError } from "pmemo-client";

const pm = new PMemo({
  baseUrl: process.env.PMEMO_URL ?? "http://127.0.0.1:8765",
  apiKey: process.env.PMEMO_API_KEY,
  timeoutMs: 60_000,
});

const GROUP = "study-group"; // one group chat = one owner of memory
const SESSION = "study-group-2026-12"; // a session: e.g. one per day or per topic
const BOT = { id: "memo-bot", name: "小忆" };

// As a chat platform would deliver them: a message id, the sender's stable id and their
// display name at the time (names change; ids do not).
const incoming = [
  { id: "m-1001", sender: "u_wt", name: "王婷", at: "2026-12-01T09:58:00+08:00", text: "今天谁去图书馆？" },
  { id: "m-1002", sender: "u_ni", name: "周霓", at: "2026-12-01T10:01:00+08:00", text: "我下午去，12月23日考研，最近压力好大" },
  { id: "m-1003", sender: "u_tom", name: "Tom", at: "2026-12-01T10:03:00+08:00", text: "I'll join you. Btw I'm allergic to peanuts, no snacks with nuts please." },
  { id: "m-1004", sender: "u_wt", name: "婷婷", at: "2026-12-01T10:05:00+08:00", text: "霓霓加油！我带咖啡过去" },
  { id: "m-1005", sender: "u_ni", name: "周霓", at: "2026-12-01T10:06:00+08:00", text: "@小忆 你还记得Tom对什么过敏吗？" },
  { id: "m-1006", sender: "u_tom", name: "Tom", at: "2026-12-01T10:08:00+08:00", text: "@小忆 what is Ni preparing for?" },
];

// The group's roster, as the platform lists it: registering members with the names others
// call them by lets "Ni" or "霓霓" in a message bring 周霓's memory into the context. (Names
// seen on turns and in messages are learned too; this only gets ahead of it.)
const roster = [
  { id: "u_ni", name: "周霓", aliases: ["霓霓", "Ni"] },
  { id: "u_wt", name: "王婷", aliases: ["婷婷"] },
  { id: "u_tom", name: "Tom", aliases: [] },
];
for (const member of roster) {
  await pm.putPerson(member.id, { name: member.name, aliases: member.aliases, group_id: GROUP });
}

const recent = []; // the last messages of the chat, newest last, as "name: text"

for (const message of incoming) {
  // 1. Remember the message, said by this person (actor_id) under this name (actor).
  //    wait: the answer comes once facts and plans are extracted, so the context below
  //    already knows them; a bot that must answer at once can drop it (the turn itself is
  //    in memory as soon as add returns).
  await pm.add(
    {
      group_id: GROUP,
      session_id: SESSION,
      role: "user",
      actor_id: message.sender,
      actor: message.name,
      content: message.text,
      timestamp: message.at,
      metadata: { message_id: message.id },
    },
    { idempotencyKey: message.id, wait: true },
  );

  // 2. The context to answer with: who asks, and what was just said.
  const ctx = await pm.context({
    group_id: GROUP,
    session_id: SESSION,
    query: message.text,
    asker: message.sender,
    recent: recent.slice(-5),
    at: message.at,
    budget_tokens: 600,
  });
  recent.push(`${message.name}: ${message.text}`);

  // 3. Reply only when addressed; your LLM would get ctx.text in its prompt.
  if (!message.text.startsWith(`@${BOT.name}`)) {
    console.log(`${message.name}: ${message.text}`);
    continue;
  }
  console.log(`\n${message.name}: ${message.text}`);
  console.log(`--- context for the LLM (${ctx.tokens}/${ctx.budget} tokens) ---\n${ctx.text}\n---`);
  const reply = `@${message.name} (the LLM's answer, written from the context above)`;
  console.log(`${BOT.name}: ${reply}\n`);

  // 4. Remember the bot's own reply too. Its key is derived from the message's, so a retry
  //    stores it once; a retry must send the same text (the same key with another body
  //    is a 409), so keep the reply you sent rather than asking the LLM again.
  await pm.add(
    {
      group_id: GROUP,
      session_id: SESSION,
      role: "assistant",
      actor_id: BOT.id,
      actor: BOT.name,
      content: reply,
      timestamp: later(message.at, 20), // sent 20 s after the question
      metadata: { in_reply_to: message.id },
    },
    { idempotencyKey: `${message.id}:reply` },
  );
  recent.push(`${BOT.name}: ${reply}`);
}

/** The time `seconds` after an ISO 8601 time, on the same clock (its UTC offset kept). */
function later(iso, seconds) {
  const offset = iso.slice(-6); // "+08:00": a turn's time is shown on its own clock
  const minutes = (offset[0] === "-" ? -1 : 1) * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4)));
  const local = new Date(Date.parse(iso) + seconds * 1000 + minutes * 60_000);
  return local.toISOString().slice(0, 19) + offset;
}

// What the group's memory now holds about one member, as the inspector would show it
try {
  const { facts } = await pm.personProfile("u_tom", { group_id: GROUP });
  console.log("What pmemo knows about Tom here:", facts.map((f) => f.sentence));
} catch (error) {
  if (!(error instanceof PMemoError && error.status === 404)) throw error;
  console.log("Nothing known about Tom yet.");
}
