// `flagstaff --help` and `flagstaff <command> --help`.

const CONNECTION = `  --url <url>        the server (or FLAGSTAFF_URL), e.g. http://localhost:4242
  --token <secret>   an admin API token (or FLAGSTAFF_TOKEN)`;

export const USAGE: Record<string, string> = {
  main: `Usage: flagstaff <command> [options]

Commands:
  serve                  run the server (SQLite by default, PostgreSQL by DATABASE_URL)
  export                 write features of an environment as an export document (JSON)
  import <file>          import an export document into a project and environment
  apply <file>           make a server match a YAML or JSON description, showing the plan first
  typegen                write TypeScript types of the flag names and variant payloads
  mcp                    serve flag tools to coding assistants (Model Context Protocol, stdio)

Run \`flagstaff <command> --help\` for its options. Docs: docs/cli.md
`,
  serve: `Usage: flagstaff serve [--apply <file>]

Runs the server, configured by environment variables (PORT, HOST, DATABASE_URL, FLAGSTAFF_AUTH,
FLAGSTAFF_ADMIN_TOKEN, … see packages/server/README.md).
  --apply <file>     apply this file at start-up, before listening (or FLAGSTAFF_APPLY_FILE)
`,
  export: `Usage: flagstaff export [--environment <env>] [--project <id> | --features <a,b> | --tag <type:value>] [--out <file>]

Writes the export document (POST /api/admin/features-batch/export) to stdout or --out; without a
project, features or tag, every live feature.
${CONNECTION}
  --environment <env> the environment whose configuration is exported (default: development)
  --project <id>     only this project's features
  --features <a,b>   only these features (comma-separated; repeatable)
  --tag <tag>        only features with this tag ("type:value", or a value of the simple type)
  --out <file>       write to this file instead of stdout
`,
  import: `Usage: flagstaff import <file> --project <id> [--environment <env>] [--dry-run]

Validates the export document, then imports it (POST /api/admin/features-batch/validate, /import).
Nothing is written when validation finds a problem. <file> "-" reads the document from standard
input (flagstaff export | flagstaff import -). Progress goes to stderr.
${CONNECTION}
  --project <id>     the project to import into (default: default)
  --environment <env> the environment to import into (default: development)
  --dry-run          validate only
`,
  apply: `Usage: flagstaff apply <file> [--dry-run] [--prune]

Reads the server, prints the plan (+ create, ~ change, - delete or archive), then applies it through
the admin API. Applying the same file again gives an empty plan.
${CONNECTION}
  --dry-run          print the plan only
  --prune            archive features of the described projects that the file does not list
                     (also "prune: true" in the file; --no-prune overrides the file)
  --no-prune         never archive
`,
  typegen: `Usage: flagstaff typegen [--from <file> | --url <url> --token <secret>] [--project <id>] [--out <file>]

Writes TypeScript: the flag names (a const array and a union), each flag's variants with their payload
types, and typedFlags(evaluator) for the in-process evaluator or unleash-client.
${CONNECTION}
  --from <file>      read the flags from an apply file instead of a server
  --project <id>     only this project (repeatable; default: every project)
  --out <file>       write to this file instead of stdout
`,
  mcp: `Usage: flagstaff mcp --url <url> --token <secret>

Runs a Model Context Protocol server on stdin/stdout for coding assistants (Claude Code, Claude
Desktop, Cursor…): tools to list, create, toggle, roll out, evaluate and clean up flags. The tools
call the server's admin API with the token, so they may do what the token may. Docs: docs/mcp.md
  --url <url>        the server (or FLAGSTAFF_URL), e.g. http://localhost:4242
  --token <secret>   an admin API token or a personal access token (or FLAGSTAFF_TOKEN)
`,
};
