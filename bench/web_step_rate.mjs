// The browser build's figures (bench/RESULTS.md): steps per second of the showcase, the cloth
// and the joint grid natively, in node and in headless Chromium, all by the same program
// (bench/step_rate.cpp), median of 3; the size of what the page loads; and the time from
// opening the Studio's page to its first frame, median of 3.
//
//   node bench/web_step_rate.mjs         (after make and make web; prints a Markdown table)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const site = path.join(root, 'build/web');
const native = path.join(root, 'build/release/tinkertoy-step-rate');
const { chromium } = createRequire(path.join(root, 'build/web-node/package.json'))('playwright-core');
const kRuns = 3;
// Each workload: its native name, its name in the WebAssembly file system, and enough steps for
// about a second natively (the browser's engine compiles the module in tiers as it runs).
const workloads = [
  { label: 'showcase (scenes/showcase.json)', native: 'scenes/showcase.json', web: '/scenes/showcase.json', steps: 60000 },
  { label: 'cloth (scenes/cloth.json)', native: 'scenes/cloth.json', web: '/scenes/cloth.json', steps: 1500 },
  { label: 'joint_grid-32, soft step', native: 'joint_grid-32', web: 'joint_grid-32', steps: 300 },
];
const median = values => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const secondsIn = line => Number(/ in ([0-9.]+) s/.exec(line)[1]);

const kTypes = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm' };
const server = http.createServer((request, response) => {
  const name = new URL(request.url, 'http://x').pathname;
  if (name === '/step-rate.html') {  // a blank page with the step-rate program
    response.writeHead(200, { 'Content-Type': 'text/html' });
    response.end('<script>var Module = { onRuntimeInitialized() { window.ready = true; } };</script>' +
                 '<script src="tinkertoy-step-rate.js"></script>');
    return;
  }
  const file = path.join(site, path.normalize(name === '/' ? '/index.html' : name));
  if (!file.startsWith(site) || !fs.existsSync(file)) { response.writeHead(404).end(); return; }
  response.writeHead(200, { 'Content-Type': kTypes[path.extname(file)] || 'application/octet-stream' });
  fs.createReadStream(file).pipe(response);
});
await new Promise(resolve => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${server.address().port}`;
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--disable-quic',
         '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});

const rows = [];
for (const w of workloads) {
  const times = { native: [], node: [], browser: [] };
  for (let run = 0; run < kRuns; ++run) {
    times.native.push(secondsIn(execFileSync(native, [w.native, String(w.steps)], { cwd: root, encoding: 'utf8' })));
    times.node.push(secondsIn(execFileSync('node', ['--no-experimental-fetch', 'tinkertoy-step-rate.js', w.web, String(w.steps)],
                                           { cwd: site, encoding: 'utf8' })));
    const page = await browser.newPage();
    await page.goto(`${origin}/step-rate.html`);
    await page.waitForFunction(() => window.ready === true);
    times.browser.push(await page.evaluate(({ web, steps }) => Module.ccall('tinkertoy_seconds_to_step', 'number',
                                                                            ['string', 'number'], [web, steps]), w));
    await page.close();
  }
  const rate = seconds => w.steps / median(seconds);
  rows.push(`| ${w.label} | ${w.steps} | ${rate(times.native).toFixed(0)} | ${rate(times.node).toFixed(0)} | ` +
            `${rate(times.browser).toFixed(0)} | ${(median(times.browser) / median(times.native)).toFixed(2)}× |`);
}

const firstFrame = [];
for (let run = 0; run < kRuns; ++run) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${origin}/#example=showcase`);
  await page.waitForFunction(() => document.getElementById('status').textContent === '', null, { polling: 10, timeout: 60000 });
  firstFrame.push(await page.evaluate(() => performance.now()));
  await page.close();
}
await browser.close();
server.close();

const size = file => (fs.statSync(path.join(site, file)).size / 1048576).toFixed(2);
console.log('| workload | steps | native steps/s | node steps/s | Chromium steps/s | Chromium time ÷ native |');
console.log('|---|---:|---:|---:|---:|---:|');
for (const row of rows) console.log(row);
console.log(`\nThe page loads tinkertoy-studio.wasm ${size('tinkertoy-studio.wasm')} MB, tinkertoy-studio.js ` +
            `${size('tinkertoy-studio.js')} MB and tinkertoy-studio.data ${size('tinkertoy-studio.data')} MB (the scenes and fonts).`);
console.log(`Time from opening the page (#example=showcase) to its first frame, from localhost: median ` +
            `${median(firstFrame).toFixed(0)} ms of ${firstFrame.map(t => t.toFixed(0)).join(', ')}.`);
