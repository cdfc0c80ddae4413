import assert from "node:assert/strict";
import { sql } from "kysely";
import { createTestDatabase, testBackend, withHandle } from "../helpers/backends.ts";
import { findLiveSessionWithUser, insertSession } from "../../src/db/repositories/sessions.ts";
import { claimTotpStep, confirmTotpSecret } from "../../src/db/repositories/totp-steps.ts";
import {
  countInWindow,
  recordHit,
  recordHitInWindow,
  recordSpacedHit,
  secondsUntilSpacedHit,
} from "../../src/db/repositories/login-attempts.ts";
import { listBalanceEntries } from "../../src/db/repositories/ledger.ts";
import { createAdmin } from "../../src/domain/admin/admins.ts";
import { ConflictError, UnauthenticatedError } from "../../src/domain/errors.ts";
import { createTestReseller } from "../helpers/resellers.ts";
import { recordingHandle } from "../helpers/order-life.ts";
import {
  type AuthContext,
  resetAdminTwoFactor,
  signIn,
  verifySecondFactor,
} from "../../src/domain/auth/auth.ts";
import { createSecretBox } from "../../src/domain/auth/secret-box.ts";
import { generateTotpCode } from "../../src/domain/auth/totp.ts";

const backend = testBackend();
const opts = { sanitizeOps: false, sanitizeResources: false };

Deno.test({
  name: `[db:${backend}] auth and ledger storage rules`,
  ...opts,
  async fn(t) {
    const tdb = await createTestDatabase(backend);
    try {
      await withHandle(tdb, async (db) => {
        const admin = await createAdmin(db, {
          name: "Ada",
          email: "Ada@Example.com",
          password: "long enough password",
          rank: "Admin",
          createdBy: "test",
        });

        await t.step("emails are stored lowercased and unique whatever their case", async () => {
          assert.equal(admin.email, "ada@example.com");
          await assert.rejects(
            createAdmin(db, {
              name: "Ada 2",
              email: "ADA@example.com",
              password: "long enough password",
              rank: "Admin",
              createdBy: "test",
            }),
            ConflictError,
          );
        });

        await t.step("an expired session is never found", async () => {
          await insertSession(db, {
            idHash: "live",
            userType: "admin",
            userId: admin._id,
            stage: "active",
            expiresAt: new Date(Date.now() + 60_000),
            ip: "",
          });
          await insertSession(db, {
            idHash: "dead",
            userType: "admin",
            userId: admin._id,
            stage: "active",
            expiresAt: new Date(Date.now() - 1),
            ip: "",
          });
          assert.ok(await findLiveSessionWithUser(db, "live"));
          assert.equal(await findLiveSessionWithUser(db, "dead"), undefined);
        });

        await t.step(
          "of concurrent confirmations one wins; of concurrent claims of one TOTP step one wins",
          async () => {
            const cy = await createAdmin(db, {
              name: "Cy",
              email: "cy@example.com",
              password: "long enough password",
              rank: "Admin",
              createdBy: "test",
            });
            assert.equal(
              await claimTotpStep(db, "admin", cy._id, 1000),
              false,
              "no step is accepted before a secret is confirmed",
            );
            const confirmations = await Promise.all(
              Array.from(
                { length: 10 },
                (_, i) => confirmTotpSecret(db, "admin", cy._id, `sealed ${i}`, 999),
              ),
            );
            assert.equal(confirmations.filter(Boolean).length, 1);
            const results = await Promise.all(
              Array.from({ length: 10 }, () => claimTotpStep(db, "admin", cy._id, 1000)),
            );
            assert.equal(results.filter(Boolean).length, 1);
            assert.equal(
              await claimTotpStep(db, "admin", cy._id, 999),
              false,
              "an older step is refused",
            );
            assert.equal(await claimTotpStep(db, "admin", cy._id, 1001), true);
          },
        );

        await t.step(
          "49 wrong codes and the right one at once on one sign-in: at most 3 are checked",
          async () => {
            // Every code checked opens the sealed secret once: counting the openings counts checks.
            const sealer = createSecretBox("a test key of at least thirty-two characters");
            let opened = 0;
            const ctx: AuthContext = {
              db,
              box: { ...sealer, open: (s) => (opened++, sealer.open(s)) },
              sessionIdleMinutes: 30,
              sessionAbsoluteHours: 12,
            };
            const signInAda = () =>
              signIn(ctx, {
                userType: "admin",
                email: admin.email,
                password: "long enough password",
                ip: "192.0.2.1",
              });
            const enrol = await signInAda();
            assert.equal(enrol.kind, "enrol");
            const secret = enrol.kind === "enrol" ? enrol.secret : "";
            await verifySecondFactor(ctx, {
              token: enrol.token,
              code: generateTotpCode(secret),
            });
            const pending = await signInAda();
            assert.equal(pending.kind, "second_factor");

            const now = Date.now();
            const right = generateTotpCode(secret, now + 30_000);
            const accepted = new Set(
              [-1, 0, 1].map((d) => generateTotpCode(secret, now + d * 30_000)),
            );
            const wrong = Array.from({ length: 2000 }, (_, i) => String(100000 + i * 449))
              .filter((c) => !accepted.has(c)).slice(0, 49);
            opened = 0;
            const results = await Promise.allSettled(
              [...wrong.slice(0, 29), right, ...wrong.slice(29)].map((code) =>
                verifySecondFactor(ctx, { token: pending.token, code })
              ),
            );
            assert.ok(opened <= 3, `${opened} codes were checked`);
            assert.ok(results.filter((r) => r.status === "fulfilled").length <= 1);
          },
        );

        await t.step(
          "a two-factor reset ends every pending sign-in: none begun before it gets in after",
          async () => {
            const ctx: AuthContext = {
              db,
              box: createSecretBox("a test key of at least thirty-two characters"),
              sessionIdleMinutes: 30,
              sessionAbsoluteHours: 12,
            };
            const signInBo = () =>
              signIn(ctx, {
                userType: "admin",
                email: "bo@example.com",
                password: "long enough password",
                ip: "192.0.2.2",
              });
            await createAdmin(db, {
              name: "Bo",
              email: "bo@example.com",
              password: "long enough password",
              rank: "Admin",
              createdBy: "test",
            });
            const reset = () =>
              resetAdminTwoFactor(db, "Bo@Example.com", { type: "cli", name: "test" });
            const codeOf = (r: Awaited<ReturnType<typeof signInBo>>, ahead = 0) =>
              generateTotpCode(r.kind === "enrol" ? r.secret : "", Date.now() + ahead * 30_000);

            const first = await signInBo();
            await verifySecondFactor(ctx, { token: first.token, code: codeOf(first) });
            const waiting = await signInBo();
            assert.equal(waiting.kind, "second_factor");
            await reset();
            await assert.rejects(
              verifySecondFactor(ctx, { token: waiting.token, code: codeOf(first, 1) }),
              UnauthenticatedError,
            );
            const again = await signInBo();
            assert.equal(again.kind, "enrol", "the next sign-in enrols a new secret");
            await reset();
            await assert.rejects(
              verifySecondFactor(ctx, { token: again.token, code: codeOf(again) }),
              UnauthenticatedError,
              "an enrolment begun before the reset confirms nothing",
            );
            assert.equal((await signInBo()).kind, "enrol");
          },
        );

        await t.step(
          "hits count per key, stop at the limit and restart after the window",
          async () => {
            for (let i = 0; i < 3; i++) await recordHit(db, "k1", 3600, 3);
            await recordHit(db, "k2", 3600, 3);
            assert.equal(await countInWindow(db, "k1", 3600), 3);
            assert.equal(await countInWindow(db, "k2", 3600), 1);
            assert.equal(await recordHit(db, "k1", 3600, 3), undefined, "a full window refuses");
            assert.equal(await countInWindow(db, "k1", 3600), 3, "and counts nothing more");
            await db.updateTable("login_attempts").set({
              window_start: sql`now() - interval '2 hours'`,
            })
              .where("key", "=", "k1").execute();
            assert.equal(
              await countInWindow(db, "k1", 3600),
              0,
              "an old window counts nothing",
            );
            assert.equal(await recordHit(db, "k1", 3600, 3), 1, "a new window starts at 1");
            assert.equal(await countInWindow(db, "k1", 3600), 1);
          },
        );

        await t.step(
          "a counted hit says how long its window has left, for the API's RateLimit-Reset",
          async () => {
            const near = (value: number | undefined, want: number) =>
              value !== undefined && value >= want - 2 && value <= want;
            const first = await recordHitInWindow(db, "q1", 3600, 2);
            assert.equal(first?.count, 1);
            assert.ok(near(first?.secondsLeft, 3600), `${first?.secondsLeft}`);
            await db.updateTable("login_attempts").set({
              window_start: sql`now() - interval '10 minutes'`,
            }).where("key", "=", "q1").execute();
            const second = await recordHitInWindow(db, "q1", 3600, 2);
            assert.equal(second?.count, 2);
            assert.ok(near(second?.secondsLeft, 3000), `${second?.secondsLeft}`);
            assert.equal(await recordHitInWindow(db, "q1", 3600, 2), undefined, "full: refused");
            await db.updateTable("login_attempts").set({
              window_start: sql`now() - interval '2 hours'`,
            }).where("key", "=", "q1").execute();
            const fresh = await recordHitInWindow(db, "q1", 3600, 2);
            assert.equal(fresh?.count, 1, "a new window starts at 1");
            assert.ok(near(fresh?.secondsLeft, 3600), `${fresh?.secondsLeft}`);
          },
        );

        await t.step(
          "a spaced key takes its first hits at once, then waits twice as long each time",
          async () => {
            const spacing = {
              windowSeconds: 86_400,
              free: 5,
              firstDelaySeconds: 60,
              maxDelaySeconds: 200,
            };
            const hit = () => recordSpacedHit(db, "s1", spacing);
            const wait = () => secondsUntilSpacedHit(db, "s1", spacing);
            const lastHitAgo = (seconds: number) =>
              db.updateTable("login_attempts")
                .set({ last_at: sql`now() - make_interval(secs => ${seconds})` })
                .where("key", "=", "s1").execute();
            const parallel = await Promise.all(Array.from({ length: 50 }, hit));
            assert.deepEqual(
              parallel.filter((n) => n !== undefined).sort((a, b) => a! - b!),
              [1, 2, 3, 4, 5],
              "50 at once: the 5 free ones count, the rest are refused",
            );
            assert.equal(await wait(), 60);
            await lastHitAgo(59);
            assert.equal(await hit(), undefined);
            await lastHitAgo(60);
            assert.equal(await hit(), 6);
            assert.equal(await wait(), 120);
            await lastHitAgo(120);
            assert.equal(await hit(), 7);
            await lastHitAgo(199);
            assert.equal(await hit(), undefined, "the wait stops growing at its maximum");
            await lastHitAgo(200);
            assert.equal(await hit(), 8);
            await db.updateTable("login_attempts")
              .set({ window_start: sql`now() - interval '2 days'` })
              .where("key", "=", "s1").execute();
            assert.equal(await hit(), 1, "a new window starts over");
          },
        );

        const reseller = await createTestReseller(db, {
          name: "Rita",
          email: "rita@example.com",
          password: "long enough password",
          balanceCents: 12_345,
          markup: { mlbb: 5 },
          twoFAEnabled: true,
        });

        await t.step(
          "a new reseller has one 'initial' history row: old 0, new = starting balance",
          async () => {
            assert.equal(reseller.balance, 123.45);
            const rows = await listBalanceEntries(db, reseller._id);
            assert.equal(rows.length, 1);
            assert.deepEqual([rows[0].type, rows[0].old_cents, rows[0].new_cents], [
              "initial",
              0,
              12_345,
            ]);
          },
        );

        await t.step("JSON columns read back as objects, not JSON text", async () => {
          const row = await db.selectFrom("resellers").select("markup").where(
            "id",
            "=",
            reseller._id,
          )
            .executeTakeFirstOrThrow();
          assert.deepEqual(row.markup, { mlbb: 5 });
        });

        await t.step("the database refuses a negative balance", async () => {
          await assert.rejects(
            db.updateTable("resellers").set({ balance_cents: -1 }).where("id", "=", reseller._id)
              .execute(),
          );
        });

        await t.step("history rows must move in their type's direction", async () => {
          const bad = (
            type: "top_up" | "deduct" | "order_placed",
            oldCents: number,
            newCents: number,
          ) =>
            db.insertInto("balance_history").values({
              reseller_id: reseller._id,
              type,
              old_cents: oldCents,
              new_cents: newCents,
            })
              .execute();
          await assert.rejects(bad("top_up", 100, 50));
          await assert.rejects(bad("deduct", 50, 100));
          await assert.rejects(bad("order_placed", 50, 50));
        });

        await t.step("a second 'initial' row for the same reseller is refused", async () => {
          await assert.rejects(
            db.insertInto("balance_history").values({
              reseller_id: reseller._id,
              type: "initial",
              old_cents: 0,
              new_cents: 1,
            }).execute(),
          );
        });
      });
    } finally {
      await tdb.drop();
    }
  },
});

Deno.test({
  name:
    `[db:${backend}] session lookups made together go out as one statement, each answered alone`,
  ...opts,
  async fn() {
    const tdb = await createTestDatabase(backend);
    const counted = recordingHandle((listener) => tdb.open(listener));
    const { db } = counted;
    try {
      const admin = await createAdmin(db, {
        name: "Ada",
        email: "ada@example.com",
        password: "long enough password",
        rank: "Admin",
        createdBy: "test",
      });
      const reseller = await createTestReseller(db, {
        name: "Rae",
        email: "rae@example.com",
        password: "long enough password",
        balanceCents: 0,
      });
      const session = (idHash: string, user: { _id: string }, userType: "admin" | "reseller") =>
        insertSession(db, {
          idHash,
          userType,
          userId: user._id,
          stage: "active",
          expiresAt: new Date(Date.now() + (idHash === "expired" ? -1 : 60_000)),
          ip: "",
        });
      await session("admin's", admin, "admin");
      await session("expired", admin, "admin");
      await session("reseller's", reseller, "reseller");
      let found: Awaited<ReturnType<typeof findLiveSessionWithUser>>[] = [];
      const statements = await counted.record(async () => {
        found = await Promise.all(
          ["admin's", "expired", "reseller's", "none"].map((hash) =>
            findLiveSessionWithUser(db, hash)
          ),
        );
      });
      assert.deepEqual(
        found.map((f) => f && (f.admin?.email ?? f.reseller?.email)),
        ["ada@example.com", undefined, "rae@example.com", undefined],
      );
      assert.equal(statements.length, 1);
    } finally {
      await db.destroy();
      await tdb.drop();
    }
  },
});
