/** npm run admin:grant -- <email> | npm run admin:revoke -- <email> — the operator role, given only here. */
import "./load-env.js";
import { db, migrateToLatest } from "~/platform/db.server";
import { setAdmin } from "~/features/admin/index.server";

const [command, email] = process.argv.slice(2);
try {
  if ((command !== "grant" && command !== "revoke") || !email) {
    console.error("Usage: npm run admin:grant -- <email>   |   npm run admin:revoke -- <email>");
    process.exitCode = 2;
  } else {
    await migrateToLatest();
    const result = await setAdmin(email, command === "grant");
    if (result.status === "unknown") {
      console.error(`No account has the email ${email}.`);
      process.exitCode = 1;
    } else if (result.status === "unchanged") {
      console.log(`${email} ${command === "grant" ? "is already" : "is not"} an operator.`);
    } else {
      console.log(`${email} ${result.status === "granted" ? "is now an operator" : "is no longer an operator"}.`);
    }
  }
} finally {
  await db.destroy();
}
