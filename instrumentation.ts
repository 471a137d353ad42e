// Runs once when the server starts: opens the database (applying migrations) and, on an
// empty database, creates the owner account and writes its password to DATA_DIR.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startup } = await import("./lib/startup");
  await startup();
}
