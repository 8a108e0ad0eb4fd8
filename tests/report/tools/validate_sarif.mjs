// Validates SARIF logs against the SARIF 2.1.0 JSON schema (the OASIS standard's final schema,
// 2.1.0-rtm.5, as Microsoft ships it in @microsoft/jest-sarif), with ajv set up the way that
// package's own `toBeValidSarifLog` matcher sets it up.
// usage: node validate_sarif.mjs FILE...   exit 0: all valid; 1: an error list on stderr
import { createRequire } from 'module';
import { readFileSync } from 'fs';

const require = createRequire(import.meta.url);
const Ajv = require('ajv');
const schema = require('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json');

const ajv = new Ajv({ schemaId: 'auto', validateSchema: false, allErrors: true });
ajv.addMetaSchema(require('ajv/lib/refs/json-schema-draft-04.json'));
const validate = ajv.compile(schema);

let failed = false;
for (const file of process.argv.slice(2)) {
  const log = JSON.parse(readFileSync(file, 'utf8'));
  if (validate(log)) continue;
  failed = true;
  for (const e of validate.errors) console.error(`${file}: ${e.dataPath} ${e.message}`);
}
process.exit(failed ? 1 : 0);
