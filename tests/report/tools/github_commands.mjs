// Prints the GitHub Actions workflow commands for the annotations in a JSON file, written by the
// Actions toolkit itself (@actions/core: error / warning / notice), so a test can compare tujit's
// `--format github` output with what the toolkit writes for the same annotations.
// usage: node github_commands.mjs ANNOTATIONS.json
//   [{"level": "error" | "warning" | "notice", "message", "title", "file", "line", "col"}, ...]
import * as core from '@actions/core';
import { readFileSync } from 'fs';

for (const a of JSON.parse(readFileSync(process.argv[2], 'utf8'))) {
  core[a.level](a.message, { title: a.title, file: a.file, startLine: a.line, startColumn: a.col });
}
