// The Studio's web page (build/web, from `make web`) in headless Chromium, driven by
// playwright-core as a user would: it loads with the gallery, opens a scene from the gallery,
// from a link's fragment, from the file picker and from a file dropped on the canvas, runs,
// builds a pendulum by clicking, drags it, saves it as a download and shares it as a link.
// Every page must stay free of console errors. Each test serves build/web on its own port and
// starts its own browser with an empty profile, so two runs can share the machine.
//
//   node tests/web/browser/studio_page_test.mjs ROOT     (ctest runs it; exit 77: skipped, and why)
import { strict as assert } from 'node:assert';
import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import zlib from 'node:zlib';

const kSkipped = 77;
const root = path.resolve(process.argv[2] || '.');
const site = path.join(root, 'build/web');
const chromiumPath = '/usr/bin/chromium';

// --- what the tests need, or why they are skipped
// The newest C++ file the page's module is built from (a build file that changes something
// relinks the module anyway), and the shipped scenes it carries.
function newestSource() {
  let newest = 0;
  const consider = file => { newest = Math.max(newest, fs.statSync(file).mtimeMs); };
  const walk = (dir, extensions) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file, extensions);
      else if (entry.isFile() && extensions.includes(path.extname(file))) consider(file);
    }
  };
  for (const dir of ['src', 'include', 'apps/studio']) walk(path.join(root, dir), ['.cpp', '.hpp', '.h']);
  for (const file of fs.readdirSync(path.join(root, 'scenes')).filter(f => f.endsWith('.json'))) consider(path.join(root, 'scenes', file));
  for (const file of ['web/studio_page.cpp', 'web/browser_platform.cpp', 'web/eigen_blas.cpp', 'web/eigen_blas.hpp',
                      'web/fortran_blas.cpp', 'cli/scene_run.cpp', 'cli/scene_run.hpp', 'cli/flag_checks.cpp',
                      'cli/flag_checks.hpp', 'cli/memory_reserve.cpp', 'cli/progress_bar.cpp']) {
    consider(path.join(root, 'apps', file));
  }
  return newest;
}
function skip(why) {
  console.log(`skipped: ${why}`);
  process.exit(kSkipped);
}
const built = ['index.html', 'tinkertoy-studio.js', 'tinkertoy-studio.wasm', 'tinkertoy-studio.data'];
if (!built.every(f => fs.existsSync(path.join(site, f)))) skip('no web build in build/web (make web builds it)');
if (fs.statSync(path.join(site, 'tinkertoy-studio.wasm')).mtimeMs < newestSource()) {
  skip('build/web is older than the sources it is built from (run make web again)');
}
if (fs.readFileSync(path.join(site, 'index.html'), 'utf8') !== fs.readFileSync(path.join(root, 'web/index.html'), 'utf8')) {
  skip('build/web/index.html is not web/index.html (run make web again)');
}
if (!fs.existsSync(chromiumPath)) skip(`no ${chromiumPath} (make web installs Debian's chromium)`);
let chromium;
try {
  chromium = createRequire(path.join(root, 'build/web-node/package.json'))('playwright-core').chromium;
} catch (e) {
  skip('no playwright-core in build/web-node (make web installs it with npm ci)');
}

// --- a static server of build/web on a port of its own
const kTypes = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.data': 'application/octet-stream' };
let server, origin, browser;
before(async () => {
  server = http.createServer((request, response) => {
    const name = decodeURIComponent(new URL(request.url, 'http://x').pathname).replace(/^\/$/, '/index.html');
    const file = path.join(site, path.normalize(name));
    if (!file.startsWith(site) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'Content-Type': kTypes[path.extname(file)] || 'application/octet-stream' });
    fs.createReadStream(file).pipe(response);
  });
  await new Promise(resolve => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${server.address().port}`;
  browser = await chromium.launch({
    executablePath: chromiumPath,
    // As root in a sandbox, offline: no sandbox, no GPU (WebGL 2 on SwiftShader), no calls home.
    args: ['--no-sandbox', '--disable-gpu', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--disable-quic',
           '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
});
after(async () => {
  await browser?.close();
  server?.close();
});

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'tinkertoy-page-'));
after(() => fs.rmSync(scratch, { recursive: true, force: true }));

// A page of the Studio at `fragment`, its console errors collected, once its first frame is drawn.
// With `frameDelay` (ms), the page draws a frame only that long after it asks for one, as on a
// loaded machine, so that input comes faster than the frames.
async function openPage(fragment = '', { frameDelay = 0 } = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
  const page = await context.newPage();
  if (frameDelay > 0) {
    await page.addInitScript(delay => {
      const ask = window.requestAnimationFrame.bind(window);
      window.requestAnimationFrame = draw => setTimeout(() => ask(draw), delay);
    }, frameDelay);
  }
  page.errors = [];
  page.on('console', m => { if (m.type() === 'error') page.errors.push(m.text()); });
  page.on('pageerror', e => page.errors.push(e.message));
  await page.goto(`${origin}/${fragment}`);
  await page.waitForFunction(() => document.getElementById('status').textContent === '', null, { timeout: 60000 });
  return page;
}
async function closePage(page) {
  assert.deepEqual(page.errors, [], 'console errors');
  await page.context().close();
}
// The model as Save writes it, from the Studio in the page.
async function sceneIn(page) {
  return JSON.parse(await page.evaluate(() => Module.ccall('tinkertoy_scene', 'string', [], [])));
}
const galleryShown = page => page.evaluate(() => getComputedStyle(document.getElementById('gallery')).display !== 'none');
// The canvas's pixel (x, y) on the page.
async function canvasPoint(page, x, y) {
  const box = await page.locator('#canvas').boundingBox();
  return { x: box.x + x, y: box.y + y };
}
// A look at the canvas, from a PNG screenshot of it decoded in the page: its size, how many
// colours a grid of every 8th pixel meets, and the RGB of the pixels at `points`.
async function lookAtCanvas(page, points = []) {
  const png = (await page.locator('#canvas').screenshot()).toString('base64');
  return page.evaluate(async ({ data, points }) => {
    const image = await createImageBitmap(await (await fetch(`data:image/png;base64,${data}`)).blob());
    const context = new OffscreenCanvas(image.width, image.height).getContext('2d');
    context.drawImage(image, 0, 0);
    const rgba = context.getImageData(0, 0, image.width, image.height).data;
    const at = (x, y) => Array.from(rgba.subarray((y * image.width + x) * 4, (y * image.width + x) * 4 + 3));
    const colours = new Set();
    for (let y = 0; y < image.height; y += 8) for (let x = 0; x < image.width; x += 8) colours.add(at(x, y).join());
    return { width: image.width, height: image.height, colours: colours.size, at: points.map(p => at(...p)) };
  }, { data: png, points });
}
const near = (a, b, tolerance) => a.every((v, k) => Math.abs(v - b[k]) <= tolerance);
const kParticle = [28, 45, 90];  // a particle's fill (include/tinkertoy/view/style.hpp)
const particlesOf = scene => (scene.particles || []).map(p => p.position);
const shipped = name => fs.readFileSync(path.join(root, 'scenes', name), 'utf8');
const linkTo = text => '#scene=' + zlib.deflateRawSync(Buffer.from(text)).toString('base64url');

test('the page loads with the gallery of every shipped scene and its description', async () => {
  const page = await openPage();
  assert.ok(await galleryShown(page));
  const cards = await page.locator('#scenes .scene[data-example]').evaluateAll(cards =>
    cards.map(c => ({ example: c.dataset.example, text: c.querySelector('p').textContent })));
  const files = fs.readdirSync(path.join(root, 'scenes')).filter(f => f.endsWith('.json')).map(f => f.replace(/\.json$/, ''));
  assert.deepEqual(cards.map(c => c.example).sort(), files.sort());
  for (const card of cards) assert.ok(card.text.length > 20, `${card.example} has no description`);
  // Behind the gallery, the Studio is drawn: its panels, not a blank canvas.
  const look = await lookAtCanvas(page);
  assert.equal(look.width, 1280);
  assert.ok(look.colours > 20, `the canvas looks blank (${look.colours} colours)`);
  await closePage(page);
});

test('a scene opens from the gallery, runs, and is named in the address', async () => {
  const page = await openPage();
  await page.locator('#scenes .scene[data-example="pendulum"]').click();
  assert.ok(!(await galleryShown(page)));
  assert.equal(new URL(page.url()).hash, '#example=pendulum');
  const start = await sceneIn(page);
  assert.equal(start.name, JSON.parse(shipped('pendulum.json')).name);
  await page.keyboard.press('Space');  // play
  await page.waitForTimeout(1500);
  const later = await sceneIn(page);
  assert.notDeepEqual(particlesOf(later), particlesOf(start), 'the pendulum did not move');
  await closePage(page);
});

test('a link carries a scene: #scene= opens it, #example= opens a shipped one, a broken link says why', async () => {
  const text = shipped('four_bar.json');
  let page = await openPage(linkTo(text));
  assert.ok(!(await galleryShown(page)));
  assert.equal((await sceneIn(page)).name, JSON.parse(text).name);
  await closePage(page);

  page = await openPage('#example=double_pendulum');
  assert.equal((await sceneIn(page)).name, JSON.parse(shipped('double_pendulum.json')).name);
  // A new fragment in the same page opens its scene.
  await page.evaluate(link => { location.hash = link; }, linkTo(shipped('chain.json')));
  await page.waitForFunction(name => JSON.parse(Module.ccall('tinkertoy_scene', 'string', [], [])).name === name, JSON.parse(shipped('chain.json')).name);
  await closePage(page);

  page = await openPage('#scene=not-deflated-data');
  assert.match(await page.locator('#notice-text').textContent(), /the scene in this link cannot be read/);
  assert.ok(await galleryShown(page));
  await closePage(page);

  page = await openPage('#example=../etc/passwd');
  assert.match(await page.locator('#notice-text').textContent(), /is not a scene's name/);
  await closePage(page);
});

test('files open from the picker and from a drop on the canvas', async () => {
  const page = await openPage();
  await page.locator('#empty-canvas').click();
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.locator('#open-button').click()]);
  await chooser.setFiles(path.join(root, 'scenes/car.json'));
  await page.waitForFunction(name => JSON.parse(Module.ccall('tinkertoy_scene', 'string', [], [])).name === name, JSON.parse(shipped('car.json')).name);

  const dropped = await page.evaluateHandle(text => {
    const transfer = new DataTransfer();
    transfer.items.add(new File([text], 'dropped.json', { type: 'application/json' }));
    return transfer;
  }, shipped('bridge.json'));
  await page.dispatchEvent('#canvas', 'drop', { dataTransfer: dropped });
  await page.waitForFunction(name => JSON.parse(Module.ccall('tinkertoy_scene', 'string', [], [])).name === name, JSON.parse(shipped('bridge.json')).name);

  // A file over the page's limit of 10 MB is refused with a message, and the model stays.
  const huge = await page.evaluateHandle(() => {
    const transfer = new DataTransfer();
    transfer.items.add(new File([new Uint8Array(11 * 1024 * 1024)], 'huge.json', { type: 'application/json' }));
    return transfer;
  });
  await page.dispatchEvent('#canvas', 'drop', { dataTransfer: huge });
  assert.match(await page.locator('#notice-text').textContent(), /huge\.json is larger than 10 MB/);
  await page.waitForTimeout(300);
  assert.equal((await sceneIn(page)).name, JSON.parse(shipped('bridge.json')).name);
  await closePage(page);
});

// Once as a user draws it, and once with the page drawing a frame only every 300 ms: the clicks,
// the drag and the keys between two frames are still taken in the order they came (a release, the
// Nail key and the click on the pivot; Enter in the Save As dialog).
for (const frameDelay of [0, 300]) {
  test(`a pendulum built by clicking is drawn where it was clicked, swings, follows the mouse, saves and shares${frameDelay ? `, on a page drawing every ${frameDelay} ms` : ''}`, async () => {
    const page = await openPage('', { frameDelay });
    await page.locator('#empty-canvas').click();
    const pivot = [400, 250], bob = [400, 450];  // canvas pixels
    await page.keyboard.press('2');  // the Particle tool
    for (const p of [pivot, bob]) {
      const at = await canvasPoint(page, ...p);
      await page.mouse.click(at.x, at.y);
    }
    await page.keyboard.press('3');  // Rod: a drag from one particle to the other
    let at = await canvasPoint(page, ...pivot);
    await page.mouse.move(at.x, at.y);
    await page.mouse.down();
    at = await canvasPoint(page, ...bob);
    await page.mouse.move(at.x, at.y, { steps: 8 });
    await page.mouse.up();
    await page.keyboard.press('5');  // Nail the pivot
    at = await canvasPoint(page, ...pivot);
    await page.mouse.click(at.x, at.y);
    // The page takes the input in the order it came, however slowly it draws (a loaded machine may
    // draw a frame only every few hundred ms): wait for the nail, then look at what was built.
    await page.waitForFunction(() => JSON.parse(Module.ccall('tinkertoy_scene', 'string', [], [])).constraints.length >= 2,
                               null, { timeout: 30000 }).catch(() => {});

    const built = await sceneIn(page);
    assert.equal(built.particles.length, 2);
    assert.equal(built.constraints.length, 2, 'a rod and a nail');
    const [p0, p1] = particlesOf(built);
    const length = Math.hypot(p1[0] - p0[0], p1[1] - p0[1]);
    assert.ok(length > 0.5, `the rod is ${length} m long`);
    // Both particles are drawn at the pixels clicked.
    // ... and not a particle's colour a particle's width away.
    const look = await lookAtCanvas(page, [pivot, bob, [pivot[0] + 14, pivot[1] + 14], [bob[0] + 14, bob[1] + 14]]);
    look.at.slice(0, 2).forEach((c, k) => assert.ok(near(c, kParticle, 12), `no particle at pixel ${[pivot, bob][k]}: ${c}`));
    look.at.slice(2).forEach(c => assert.ok(!near(c, kParticle, 40), `a particle's colour off the particle: ${c}`));

    // Run, and pull the bob to the right with the Drag tool.
    await page.keyboard.press('1');
    await page.keyboard.press('Space');
    await page.waitForTimeout(200);
    const swinging = particlesOf(await sceneIn(page))[1];
    at = await canvasPoint(page, ...bob);
    await page.mouse.move(at.x, at.y);
    await page.mouse.down();
    for (let k = 1; k <= 10; ++k) {
      await page.mouse.move(at.x + 20 * k, at.y - 5 * k);
      await page.waitForTimeout(60);
    }
    await page.waitForTimeout(800);
    const pulled = await sceneIn(page);
    // The picture of the page in the README (scripts/make-images.sh asks for it).
    if (process.env.TINKERTOY_PAGE_SCREENSHOT && !frameDelay) await page.screenshot({ path: process.env.TINKERTOY_PAGE_SCREENSHOT });
    await page.mouse.up();
    const [q0, q1] = particlesOf(pulled);
    assert.ok(Math.hypot(q0[0] - p0[0], q0[1] - p0[1]) < 1e-6, 'the nail held');
    assert.ok(Math.abs(Math.hypot(q1[0] - q0[0], q1[1] - q0[1]) - length) < 1e-3 * length, 'the rod kept its length');
    assert.ok(q1[0] - p0[0] > 0.3 * length, `the bob was not pulled right: at ${q1}, was at ${swinging}`);

    // Save (Ctrl+S; untitled, so Save As, whose name Enter takes) downloads the file.
    await page.keyboard.press('Space');  // pause
    // The page keeps Ctrl+S from the browser (which would save the page), and the Studio gets it.
    await page.evaluate(() => window.addEventListener('keydown', e => { if (e.key === 's') window.savePrevented = e.defaultPrevented; }));
    // Enter answers the Save As dialog once it has appeared, which on a loaded machine can take
    // longer than any fixed wait: it is pressed again until the download starts.
    let download = null;
    const downloading = page.waitForEvent('download', { timeout: 60000 }).then(d => (download = d));
    await page.keyboard.press('Control+s');
    for (let k = 0; k < 100 && !download; ++k) {
      await page.waitForTimeout(300);
      if (!download) await page.keyboard.press('Enter');
    }
    await downloading;
    assert.equal(download.suggestedFilename(), 'untitled.json');
    assert.equal(await page.evaluate(() => window.savePrevented), true);
    const savedFile = path.join(scratch, 'saved.json');
    await download.saveAs(savedFile);
    const saved = JSON.parse(fs.readFileSync(savedFile, 'utf8'));
    assert.equal(saved.particles.length, 2);
    assert.equal(saved.constraints.length, 2);

    // Share: the address now carries the model, and a new page opens it from there.
    await page.locator('#share-button').click();
    await page.waitForFunction(() => document.getElementById('share-link').value.includes('#scene='));
    const link = new URL(await page.locator('#share-link').inputValue());
    const other = await openPage(link.hash);
    assert.deepEqual(particlesOf(await sceneIn(other)), particlesOf(await sceneIn(page)));
    await closePage(other);
    await closePage(page);
  });
}

// Emscripten's GLFW hears the mouse on the canvas only; the page passes it a drag's moves and
// release elsewhere (web/index.html), so the drag follows the pointer and ends where it was let go.
test('a drag that leaves the canvas ends where its button is let go, over the page\'s bar', async () => {
  const page = await openPage();
  await page.locator('#empty-canvas').click();
  const start = [400, 250];  // canvas pixels
  await page.keyboard.press('2');  // the Particle tool
  let at = await canvasPoint(page, ...start);
  await page.mouse.click(at.x, at.y);
  await page.waitForFunction(() => (JSON.parse(Module.ccall('tinkertoy_scene', 'string', [], [])).particles || []).length === 1,
                             null, { timeout: 30000 });
  await page.keyboard.press('3');  // Rod: from the particle to where the button is let go
  await page.mouse.move(at.x, at.y);
  await page.mouse.down();
  const bar = await page.locator('#open-button').boundingBox();
  const canvas = await page.locator('#canvas').boundingBox();
  assert.ok(bar.y + bar.height <= canvas.y, 'the bar is above the canvas');
  const out = { x: at.x, y: bar.y + bar.height / 2 };
  await page.mouse.move(out.x, out.y, { steps: 8 });
  await page.mouse.up();
  await page.waitForFunction(() => JSON.parse(Module.ccall('tinkertoy_scene', 'string', [], [])).constraints.length >= 1,
                             null, { timeout: 30000 }).catch(() => {});
  const built = await sceneIn(page);
  assert.equal(built.constraints.length, 1, 'the drag ended over the bar and made its rod');
  assert.equal(built.particles.length, 2, 'a new particle where the button was let go');
  const [from, to] = particlesOf(built);
  assert.ok(to[1] > from[1] && Math.abs(to[0] - from[0]) < 0.05 * (to[1] - from[1]),
            `the rod's new end is straight above its start, off the canvas: ${to} from ${from}`);
  // The button is up again: a click on the canvas with the Particle tool is a click.
  await page.keyboard.press('2');
  at = await canvasPoint(page, 600, 300);
  await page.mouse.click(at.x, at.y);
  await page.waitForFunction(() => JSON.parse(Module.ccall('tinkertoy_scene', 'string', [], [])).particles.length >= 3,
                             null, { timeout: 30000 }).catch(() => {});
  assert.equal((await sceneIn(page)).particles.length, 3);
  // A release the page never hears (the window lost the focus mid-drag) ends the drag where the
  // pointer last was: when the window loses the focus, or at the next move without the button.
  const constraints = async () => (await sceneIn(page)).constraints.length;
  for (const [k, lose] of [[0, () => page.evaluate(() => window.dispatchEvent(new Event('blur')))],
                           [1, () => page.evaluate(() => document.body.dispatchEvent(new MouseEvent('mousemove', { bubbles: true, buttons: 0 })))]]) {
    await page.keyboard.press('3');
    at = await canvasPoint(page, 600, 300 + 100 * k);
    await page.mouse.move(at.x, at.y);
    await page.mouse.down();
    const end = await canvasPoint(page, 700, 300 + 100 * k);
    await page.mouse.move(end.x, end.y, { steps: 4 });
    await page.waitForTimeout(200);
    await lose();
    await page.waitForFunction(n => JSON.parse(Module.ccall('tinkertoy_scene', 'string', [], [])).constraints.length > n,
                               1 + k, { timeout: 30000 }).catch(() => {});
    assert.equal(await constraints(), 2 + k, 'the drag ended when its release was lost');
    // Playwright still holds the button: it is let go over the bar, which the page does not pass on.
    await page.mouse.move(out.x, out.y);
    await page.mouse.up();
    if (k === 0) {  // the next rod starts from a particle of its own
      await page.keyboard.press('2');
      at = await canvasPoint(page, 600, 400);
      await page.mouse.click(at.x, at.y);
    }
  }
  assert.equal(await constraints(), 3);
  await closePage(page);
});

test('a video cannot be recorded in the browser, and the Studio says so instead of failing', async () => {
  const page = await openPage('#example=pendulum');
  const warnings = [];
  page.on('console', m => { if (m.type() === 'warning') warnings.push(m.text()); });
  await page.keyboard.press('F9');
  await page.waitForTimeout(500);
  assert.ok(warnings.some(w => w.includes('recording a video is not available in the browser')), warnings.join('\n'));
  await closePage(page);
});

test('a screenshot (F12) is downloaded as a PNG of the canvas', async () => {
  const page = await openPage('#example=pendulum');
  const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('F12')]);
  assert.equal(download.suggestedFilename(), 'pendulum-1.png');
  const file = path.join(scratch, 'shot.png');
  await download.saveAs(file);
  const png = fs.readFileSync(file);
  assert.equal(png.subarray(1, 4).toString(), 'PNG');
  assert.equal(png.readUInt32BE(16), 1280, 'the canvas is 1280 pixels wide');
  await closePage(page);
});

