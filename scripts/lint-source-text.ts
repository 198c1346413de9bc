import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// `npm run lint:text`: no tracked source file or document cites an issue number or a security
// review's finding code. Issues live outside the repository, so a reader cannot follow a citation of one;
// the reason belongs in the comment itself or in docs/decisions/NNN, which a reader can open
// (docs/development.md, "Comments"). docs/security.md alone maps review findings to the tests that
// answer them, and so keeps their codes (never an issue number).

/** The word "issue" or "issues", then a number, with or without "#". */
const ISSUE_NUMBER = /\bissues?\s+#?\d+/i;
/**
 * A review's finding code: F, N, E or S and one or two digits, or R, a digit, a dash and a number. A
 * `%` before it is URL escaping, not a code.
 */
const FINDING_CODE = /(?<![%\w-])(?:[FNES]\d{1,2}|R\d-\d{1,2})(?![\w-])/;

const CHECKED = /\.(?:ts|tsx|mts|js|mjs|sol|json|css|md|yaml|yml|sh)$/;
const SKIPPED = [
  /(?:^|\/)package-lock\.json$/,
  /\.gen\.ts$/,
  /(?:^|\/)drizzle\/meta\//,
  /^scripts\/lint-source-text(?:\.test)?\.ts$/,
];

/** The one document that names review findings by code. */
const FINDING_CODES_KEPT = /^docs\/security\.md$/;

export type TextFinding = { path: string; line: number; text: string; what: 'issue number' | 'finding code' };

/** Every line of `content` that cites an issue number or a finding code. */
export function findCitations(path: string, content: string): TextFinding[] {
  const findings: TextFinding[] = [];
  const codesKept = FINDING_CODES_KEPT.test(path);
  content.split('\n').forEach((text, index) => {
    if (ISSUE_NUMBER.test(text)) findings.push({ path, line: index + 1, text, what: 'issue number' });
    else if (!codesKept && FINDING_CODE.test(text))
      findings.push({ path, line: index + 1, text, what: 'finding code' });
  });
  return findings;
}

export function isChecked(path: string): boolean {
  return CHECKED.test(path) && !SKIPPED.some((pattern) => pattern.test(path));
}

function main() {
  const root = fileURLToPath(new URL('../', import.meta.url));
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
    .split('\0')
    .filter((path) => path !== '' && isChecked(path));
  const findings = files.flatMap((path) => findCitations(path, readFileSync(`${root}${path}`, 'utf8')));
  for (const finding of findings) {
    console.error(`${finding.path}:${finding.line}: cites an ${finding.what}: ${finding.text.trim()}`);
  }
  if (findings.length > 0) {
    console.error(
      `\n${findings.length} line(s) cite an issue or a review finding: say the reason itself, or cite docs/decisions/NNN.`,
    );
    process.exit(1);
  }
  console.log(`lint:text: ${files.length} files cite no issue number or finding code.`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
