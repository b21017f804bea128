// Compiled (not run) by `npm run build`: the types a user's TypeScript sees through
// `import ... from "pmemo-client"`. Each @ts-expect-error is a call the types must refuse.
import { PMemo, PMemoError, type Turn, type Context, type Owner } from "pmemo-client";

export async function usage(pm: PMemo): Promise<void> {
  const turn: Turn = await pm.add(
    { group_id: "study", session_id: "chat", content: "hi", actor_id: "wt", actor: "王婷" },
    { idempotencyKey: "msg-1", wait: true },
  );
  turn.id satisfies number;
  const ctx: Context = await pm.context({ group_id: "study", query: "?", asker: "wt", recent: ["a"] });
  ctx.text satisfies string;
  await pm.listTurns({ user_id: "alice", limit: 5 });
  await pm.updateKeyLine(1, { text: "x" }, { ifMatch: 3 });
  await pm.forget({ turn_ids: [1, 2] });
  await pm.forget({ user_id: "alice", query: "my sister" });
  await pm.restore({ batch: 3 });
  await pm.putPerson("ni", { name: "周霓", aliases: ["霓霓"] });
  await pm.personProfile("ni");
  const gone = await pm.forgetPerson("ni", { group_id: "study", dry_run: true });
  gone.aliases satisfies string[];
  gone.batch satisfies number | null;
  await pm.forgetPerson("ni");
  const owner: Owner = { user_id: "alice" };
  await pm.stats(owner);

  // @ts-expect-error: a turn needs an owner
  await pm.add({ session_id: "s", content: "no owner" });
  // @ts-expect-error: exactly one owner, not both
  await pm.search({ user_id: "a", group_id: "g", query: "q" });
  // @ts-expect-error: content is required
  await pm.add({ user_id: "a", session_id: "s" });
  // @ts-expect-error: forget by ids takes no owner
  await pm.forget({ turn_ids: [1], user_id: "alice" });
  // @ts-expect-error: a listing needs its owner
  await pm.listSessions({});
  // @ts-expect-error: one chat at most, not both
  await pm.forgetPerson("ni", { user_id: "a", group_id: "g" });
  // @ts-expect-error: an unknown role
  await pm.add({ user_id: "a", session_id: "s", content: "x", role: "bot" });

  try {
    await pm.getTurn(1);
  } catch (e) {
    if (e instanceof PMemoError) {
      e.status satisfies number;
      e.problem.detail satisfies string;
      e.retryAfter satisfies number | undefined;
    }
  }
}
