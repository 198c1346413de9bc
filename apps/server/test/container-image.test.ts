import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

// The image's `npm ci` runs on the manifests alone (the sources come after, for the layer cache): a
// workspace whose package.json is not copied first makes that install fail or drop its dependencies.
test('every stage that installs copies the package.json of every workspace first', () => {
  const read = (path: string) =>
    readFileSync(fileURLToPath(new URL(`../../../${path}`, import.meta.url)), 'utf8');
  const workspaces: string[] = JSON.parse(read('package.json')).workspaces;
  const stages = read('Dockerfile')
    .split(/^FROM /m)
    .slice(1);
  const installing = stages.filter((stage) => /^RUN npm ci/m.test(stage));
  expect(installing.length).toBeGreaterThan(0);
  for (const stage of installing) {
    const beforeInstall = stage.slice(0, stage.search(/^RUN npm ci/m));
    for (const workspace of workspaces) {
      expect(beforeInstall, workspace).toContain(`COPY ${workspace}/package.json ${workspace}/`);
    }
  }
});
