/*
 * Browser tests of `hwc-trace report` (analyzers/report_*.c, report.js):
 * each case writes a report, opens it in headless chromium (cdp.js) and
 * checks the page against the inputs, which it reads itself.
 *
 *   node report_test.js home|video      the reference trace with a replay of it on the vkms board:
 *                                       no console error, the frame view has one rectangle per
 *                                       layer coloured by the results' plane, another frame
 *                                       updates it, a screenshot of it is not blank
 *   node report_test.js compare         two results that differ (vkms overlays vs no overlays,
 *                                       and a copy of one with three frames edited): the page
 *                                       marks exactly the frames whose plan or checksum differ
 *   node report_test.js pictures        two --dump-images runs: their pictures are embedded and
 *                                       their difference shows no pixel exactly where the
 *                                       checksums agree
 *   node report_test.js hostile         a trace whose strings carry markup and script: shown as
 *                                       text, nothing injected, nothing run
 *
 * Environment (set by meson): HWCT_TRACE, HWCT_REPLAY, HWCT_SCENARIO, HWCT_HOSTILE_GEN (programs),
 * HWCT_SOURCE_ROOT, HWCT_OUT (a directory for the files of the run), HWCT_CHROMIUM (default
 * /usr/bin/chromium). Exit 0 pass, 1 fail, 77 skip (no browser).
 */
'use strict';
const { execFileSync } = require('child_process');
const fs = require('fs');
const path = require('path');
const { Browser } = require('./cdp.js');

const env = process.env;
const chromium = env.HWCT_CHROMIUM || '/usr/bin/chromium';
if (!fs.existsSync(chromium)) {
	console.log('SKIP: no browser at ' + chromium + ' (scripts/install-deps.sh browser installs chromium)');
	process.exit(77);
}
const root = env.HWCT_SOURCE_ROOT;
const testCase = process.argv[2];
const out = path.join(env.HWCT_OUT, testCase);
const boards = path.join(root, 'tests', 'data', 'boards');

function fail(msg) {
	throw new Error(msg);
}

function check(cond, msg) {
	if (!cond) {
		fail(msg);
	}
}

/* Runs a program; its stdout. statuses: the exit statuses that are not a failure (default [0]). */
function run(program, args, statuses) {
	try {
		return execFileSync(program, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
	} catch (e) {
		if (e.status !== null && (statuses || [0]).includes(e.status)) {
			return e.stdout;
		}
		fail(path.basename(program) + ' ' + args.join(' ') + ': exit ' + e.status + '\n' + e.stderr);
	}
	return '';
}

function replay(trace, board, results, extra) {
	run(env.HWCT_REPLAY, [trace, '--profile', path.join(boards, board), '--format-fallback', 'equivalent',
		'--results', results, '--quiet', ...(extra || [])]);
	return JSON.parse(fs.readFileSync(results, 'utf8'));
}

function report(trace, results, html) {
	run(env.HWCT_TRACE, ['report', trace, ...results, '-o', html]);
	check(fs.existsSync(html), 'no report written at ' + html);
	const text = fs.readFileSync(html, 'utf8');
	check(!/<(script|link|img|iframe)[^>]+(src|href)\s*=/i.test(text), 'the page loads something: ' +
		(text.match(/<(script|link|img|iframe)[^>]+(src|href)\s*=[^>]*>/i) || [''])[0]);
	return text;
}

async function open(browser, html) {
	const page = await browser.newPage();
	await page.send('Emulation.setDeviceMetricsOverride', { width: 1400, height: 2400, deviceScaleFactor: 1,
		mobile: false });
	await page.goto('file://' + path.resolve(html));
	// no deadline of its own: a loaded host may take any time, meson's timeout bounds a page that never gets ready
	await page.evaluate('new Promise((resolve) => { (function poll() { ' +
		'if (document.body && document.body.dataset.ready === "true") resolve(true); ' +
		'else setTimeout(poll, 50); })(); })');
	return page;
}

function checkNoErrors(page, what) {
	check(page.errors.length === 0, what + ': the page reported errors:\n  ' + page.errors.join('\n  '));
}

/* The frame view as the page shows it. */
function frameView(page) {
	return page.evaluate('(() => { const rects = [...document.querySelectorAll("#display-svg rect.layer-rect")]; ' +
		'return { frame: Number(document.body.dataset.frame), rects: rects.map((r) => ({ layer: Number(r.dataset.layer), ' +
		'plane: r.dataset.plane, color: r.dataset.color, hatched: r.dataset.hatched === "true", ' +
		'fill: r.getAttribute("fill"), x: Number(r.getAttribute("x")), y: Number(r.getAttribute("y")) })), ' +
		'rows: document.querySelectorAll("#layer-table tr[data-layer]").length, ' +
		'disagrees: document.querySelectorAll(\'#layer-table td.disagrees[data-results="0"]\').length }; })()');
}

async function selectFrame(page, frame) {
	await page.evaluate('(() => { const i = document.getElementById("frame-input"); i.value = "' + frame + '"; ' +
		'i.dispatchEvent(new Event("change")); })()');
}

/* Pixel statistics of a PNG, computed by the browser on a blank page. */
async function pixelStats(browser, png) {
	const page = await browser.newPage();
	const stats = await page.evaluate('(async () => { const img = new Image(); img.src = "data:image/png;base64,' +
		png.toString('base64') + '"; await img.decode(); const c = document.createElement("canvas"); ' +
		'c.width = img.width; c.height = img.height; const ctx = c.getContext("2d"); ctx.drawImage(img, 0, 0); ' +
		'const d = ctx.getImageData(0, 0, c.width, c.height).data; const colors = new Map(); let sum = 0, sum2 = 0; ' +
		'const n = d.length / 4; for (let i = 0; i < d.length; i += 4) { const y = 0.299 * d[i] + 0.587 * d[i + 1] + ' +
		'0.114 * d[i + 2]; sum += y; sum2 += y * y; const k = (d[i] >> 4) << 8 | (d[i + 1] >> 4) << 4 | d[i + 2] >> 4; ' +
		'colors.set(k, (colors.get(k) || 0) + 1); } const top = [...colors.values()].sort((a, b) => b - a)[0]; ' +
		'return { width: c.width, height: c.height, mean: sum / n, stddev: Math.sqrt(Math.max(0, sum2 / n - ' +
		'(sum / n) ** 2)), colors: [...colors.values()].filter((v) => v > n / 1000).length, dominant: top / n }; })()');
	await page.send('Page.close').catch(() => {});
	return stats;
}

/* The plan of a frame in results: layer -> plane ("client" when none). */
function resultFrame(results, frame) {
	return results.frames.find((f) => f.frame === frame && !f.loop);
}

function planeOf(entry) {
	return entry.plane === null ? 'client' : String(entry.plane);
}

/* Checks the frame view of `frame` against the results' plan (results: the first file the page was given). */
async function checkFrame(page, results, frame) {
	const view = await frameView(page);
	const expected = resultFrame(results, frame);
	check(view.frame === frame, 'the page shows frame ' + view.frame + ', not ' + frame);
	check(expected && expected.plan, 'frame ' + frame + ' has no plan in the results');
	check(view.rects.length === expected.plan.length, 'frame ' + frame + ': ' + view.rects.length +
		' layer rectangles for ' + expected.plan.length + ' layers');
	check(view.rows === expected.plan.length, 'frame ' + frame + ': ' + view.rows + ' table rows for ' +
		expected.plan.length + ' layers');
	const colorOfPlane = new Map();
	for (const p of expected.plan) {
		const r = view.rects.find((x) => x.layer === p.layer);
		check(r, 'frame ' + frame + ': no rectangle for layer ' + p.layer);
		check(r.plane === planeOf(p), 'frame ' + frame + ' layer ' + p.layer + ': shown on ' + r.plane +
			', the results say ' + planeOf(p));
		check(r.hatched === (p.plane === null), 'frame ' + frame + ' layer ' + p.layer + ': hatched ' + r.hatched +
			' for ' + planeOf(p));
		check(r.hatched ? /^url\(#/.test(r.fill) : r.fill === r.color, 'frame ' + frame + ' layer ' + p.layer +
			': fill ' + r.fill + ' is not its colour ' + r.color);
		const known = colorOfPlane.get(r.plane);
		check(known === undefined || known === r.color, 'frame ' + frame + ': plane ' + r.plane +
			' drawn in two colours');
		colorOfPlane.set(r.plane, r.color);
	}
	/* plan cells that disagree with the recorded decision, as the results' own "recorded" says */
	const onDevice = ['DEVICE', 'SOLID_COLOR', 'CURSOR', 'SIDEBAND', 'DISPLAY_DECORATION'];
	const disagreeing = expected.plan.filter((p, i) => {
		const rec = expected.recorded && expected.recorded.layers[i];
		return rec && (onDevice.includes(rec.composition) || rec.composition === 'CLIENT') &&
			(p.plane !== null) !== onDevice.includes(rec.composition);
	}).length;
	check(view.disagrees === disagreeing, 'frame ' + frame + ': ' + view.disagrees + ' plan cells marked as ' +
		'disagreeing with the recording, the results say ' + disagreeing);
	const colors = [...colorOfPlane.values()];
	check(new Set(colors).size === colors.length, 'frame ' + frame + ': two planes share a colour: ' +
		JSON.stringify([...colorOfPlane]));
	return view;
}

async function caseTrace(browser, name) {
	const trace = path.join(root, 'traces', name + '.zst');
	const results = replay(trace, 'vkms-6.1-overlays.json', path.join(out, name + '.json'), ['--mode-map', 'none']);
	const html = path.join(out, name + '.html');
	report(trace, [path.join(out, name + '.json')], html);
	const page = await open(browser, html);
	checkNoErrors(page, 'loading');
	const summary = await page.evaluate('document.getElementById("summary").textContent');
	check(summary.includes('scenario:' + name), 'the header does not show the source scenario:' + name);
	const first = results.frames[0].frame;
	const view0 = await checkFrame(page, results, first);
	/* another frame, with another layer count when the trace has one */
	const other = results.frames.find((f) => f.plan && f.plan.length !== view0.rects.length) ||
		results.frames[results.frames.length - 1];
	await selectFrame(page, other.frame);
	await checkFrame(page, results, other.frame);
	/* a click on the timeline selects a frame too */
	const box = await page.evaluate('(() => { const r = document.getElementById("timeline").getBoundingClientRect(); ' +
		'return { x: r.left, y: r.top, width: r.width, height: r.height }; })()');
	for (const type of ['mousePressed', 'mouseReleased']) {
		await page.send('Input.dispatchMouseEvent', { type, x: box.x + box.width * 0.75, y: box.y + box.height / 2,
			button: 'left', clickCount: 1 });
	}
	const clicked = await frameView(page);
	check(clicked.frame !== other.frame || other.frame >= results.frames.length * 0.7, 'a click on the timeline ' +
		'did not select a frame');
	await checkFrame(page, results, clicked.frame);
	/* the screenshot of the frame view */
	await selectFrame(page, first);
	const clip = await page.evaluate('(() => { const r = document.getElementById("display-svg").getBoundingClientRect(); ' +
		'return { x: r.left, y: r.top, width: r.width, height: r.height }; })()');
	check(clip.width > 50 && clip.height > 50, 'the display is drawn ' + clip.width + 'x' + clip.height);
	const png = await page.screenshot(clip);
	fs.writeFileSync(path.join(out, name + '-frame-view.png'), png);
	fs.writeFileSync(path.join(out, name + '-page.png'), await page.screenshot());
	const stats = await pixelStats(browser, png);
	check(stats.stddev > 3 && stats.colors >= 3 && stats.dominant < 0.97, 'the frame view looks blank: ' +
		JSON.stringify(stats));
	checkNoErrors(page, 'after the checks');
	console.log(name + ': ' + results.frames.length + ' frames, frame ' + first + ' (' + view0.rects.length +
		' layers), frame ' + other.frame + ', frame ' + clicked.frame + ' checked; screenshot ' +
		JSON.stringify(stats));
}

/* The frames `hwc-trace diff A B` counts as differing: plan, reasons, client target, checksum. */
function differingFrames(a, b) {
	const key = (f) => (f.plan ? JSON.stringify(f.plan.map((p) => [p.layer, p.plane, [...p.reasons].sort()])) :
		'none') + '|' + f.client_target_plane;
	const set = [];
	for (const fa of a.frames) {
		const fb = resultFrame(b, fa.frame);
		if (!fa.loop && fb && (key(fa) !== key(fb) || fa.checksum !== fb.checksum)) {
			set.push(fa.frame);
		}
	}
	return set;
}

async function markedFrames(page, comparison) {
	return page.evaluate('(() => { const out = []; for (const li of document.querySelectorAll(' +
		'"ul.ranges[data-comparison=\\"' + comparison + '\\"] li.diff-range")) { for (let f = Number(li.dataset.first); ' +
		'f <= Number(li.dataset.last); f++) out.push(f); } return out; })()');
}

async function caseCompare(browser) {
	const trace = path.join(out, 'home1024.zst');
	run(env.HWCT_SCENARIO, ['home', trace, '--frames', '90', '--size', '1024x768']);
	const a = replay(trace, 'vkms-6.1-overlays.json', path.join(out, 'overlays.json'));
	const b = replay(trace, 'vkms-6.1-no-overlays.json', path.join(out, 'no-overlays.json'));
	/* a copy of A with three frames changed: a checksum, a plane, the reasons */
	const edited = JSON.parse(JSON.stringify(a));
	const changes = [7, 42, 77];
	resultFrame(edited, 7).checksum = '0123456789abcdef0123456789abcdef';
	resultFrame(edited, 42).plan[0].plane = 99;
	resultFrame(edited, 77).plan[1].reasons = ['budget'];
	fs.writeFileSync(path.join(out, 'edited.json'), JSON.stringify(edited, null, 1));
	const html = path.join(out, 'compare.html');
	report(trace, [path.join(out, 'overlays.json'), path.join(out, 'no-overlays.json'), path.join(out, 'edited.json')],
		html);
	const page = await open(browser, html);
	checkNoErrors(page, 'loading');
	const expectB = differingFrames(a, b), expectEdited = differingFrames(a, edited);
	check(JSON.stringify(expectEdited) === JSON.stringify(changes), 'the edit changed frames ' + expectEdited);
	check(expectB.length > 0 && expectB.length <= a.frames.length, 'overlays and no overlays do not differ');
	for (const [i, expected] of [[0, expectB], [1, expectEdited]]) {
		const marked = await markedFrames(page, i);
		check(JSON.stringify(marked) === JSON.stringify(expected), 'comparison ' + (i + 1) + ' marks frames ' +
			JSON.stringify(marked) + ', the results differ in ' + JSON.stringify(expected));
	}
	/* the timeline's red marks, row by row: the frames under the red pixel columns */
	for (const [i, expected] of [[0, expectB], [1, expectEdited]]) {
		const red = await page.evaluate('(() => { const c = document.getElementById("timeline"); ' +
			'const w = c.width, h = c.height, d = c.getContext("2d").getImageData(0, 0, w, h).data; ' +
			'const rowH = (h - (10 * ' + 2 + ' + 4) - 14) / 5, y = Math.floor(5 * rowH + 2 + 10 * ' + i + ' + 4); ' +
			'const n = window.hwctReport.frameCount, out = new Set(); for (let x = 0; x < w; x++) { const k = (y * w + x) * 4; ' +
			'if (d[k] === 217 && d[k + 1] === 48 && d[k + 2] === 37) out.add(Math.floor(x * n / w)); } return [...out]; })()');
		const frameAt = a.frames.map((f) => f.frame);
		check(JSON.stringify(red.map((x) => frameAt[x])) === JSON.stringify(expected), 'the timeline marks frames ' +
			JSON.stringify(red.map((x) => frameAt[x])) + ' for comparison ' + (i + 1) + ', not ' + JSON.stringify(expected));
	}
	/* the numbers agree with `hwc-trace diff` */
	const diff = JSON.parse(run(env.HWCT_TRACE, ['diff', path.join(out, 'overlays.json'), path.join(out, 'edited.json'),
		'--json'], [1]));
	const shown = await page.evaluate('[...document.querySelectorAll("#comparison-1 tr")].map((tr) => ' +
		'[...tr.cells].map((c) => c.textContent))');
	const row = (name) => (shown.find((r) => r[0].trim() === name) || [])[1];
	check(row('first differing frame') === '7', 'comparison 2 names ' + row('first differing frame') +
		' as the first differing frame, not 7');
	check(row('frames differing') === '3', 'comparison 2 counts ' + row('frames differing') + ' differing frames');
	check(row('frames compared') === String(a.frames.length), 'comparison 2 compared ' + row('frames compared'));
	const diffFrames = [...new Set(diff.differences.map((d) => d.frame))];
	check(JSON.stringify(diffFrames) === JSON.stringify(await markedFrames(page, 1)), 'hwc-trace diff finds ' +
		JSON.stringify(diffFrames) + ', the page marks others');
	/* the frame view marks a differing frame and the next-difference button finds the next one */
	await selectFrame(page, 40);
	await page.evaluate('document.getElementById("diff-next").click()');
	const next = (await frameView(page)).frame;
	const firstAfter = [...new Set([...expectB, ...expectEdited])].sort((x, y) => x - y).find((f) => f > 40);
	check(next === firstAfter, 'next difference after 40 went to ' + next + ', expected ' + firstAfter);
	await checkFrame(page, a, next);
	checkNoErrors(page, 'after the checks');
	console.log('compare: overlays vs no overlays differ in ' + expectB.length + ' of ' + a.frames.length +
		' frames, the edited copy in ' + changes.join(', ') + '; the page marks exactly these');
}

async function casePictures(browser) {
	const trace = path.join(out, 'home1024.zst');
	run(env.HWCT_SCENARIO, ['home', trace, '--frames', '8', '--size', '1024x768']);
	const runs = [['vkms-6.1-overlays.json', ['--format-fallback', 'equivalent']], ['vkms-6.1-no-overlays.json', []]];
	const results = runs.map(([board, extra], i) => {
		fs.mkdirSync(path.join(out, 'images-' + i));
		run(env.HWCT_REPLAY, [trace, '--profile', path.join(boards, board), '--results', path.join(out, 'r' + i + '.json'),
			'--dump-images', path.join(out, 'images-' + i), '--quiet', ...extra]);
		return JSON.parse(fs.readFileSync(path.join(out, 'r' + i + '.json'), 'utf8'));
	});
	/* the same pictures from both runs: B's frame 5 becomes A's frame 3, its checksum with it */
	const a3 = resultFrame(results[0], 3), b5 = resultFrame(results[1], 5);
	check(a3.checksum !== resultFrame(results[0], 5).checksum, 'frames 3 and 5 have the same picture');
	fs.copyFileSync(path.join(out, 'images-0', a3.image), path.join(out, 'images-1', b5.image));
	b5.checksum = a3.checksum;
	fs.writeFileSync(path.join(out, 'r1.json'), JSON.stringify(results[1]));
	const html = path.join(out, 'pictures.html');
	report(trace, [path.join(out, 'r0.json'), path.join(out, 'r1.json')], html);
	const page = await open(browser, html);
	let same = 0;
	for (const fa of results[0].frames) {
		const fb = resultFrame(results[1], fa.frame);
		await selectFrame(page, fa.frame);
		// polled without a deadline (meson's timeout bounds it): the picture is drawn after its images load
		const facts = await page.evaluate('new Promise((resolve) => { (function poll() { ' +
			'const c = document.querySelector("#frame-pictures canvas.difference"); ' +
			'if (c && c.dataset.differing !== undefined) resolve({ imgs: document.querySelectorAll("#frame-pictures img").length, ' +
			'differing: Number(c.dataset.differing) }); ' +
			'else setTimeout(poll, 20); })(); })');
		check(facts.imgs === 2, 'frame ' + fa.frame + ': ' + facts.imgs + ' pictures, not 2');
		check((facts.differing === 0) === (fa.checksum === fb.checksum), 'frame ' + fa.frame + ': ' + facts.differing +
			' pixels differ, checksums ' + fa.checksum + ' and ' + fb.checksum);
		same += fa.checksum === fb.checksum;
	}
	checkNoErrors(page, 'after the checks');
	console.log('pictures: ' + results[0].frames.length + ' frames, ' + same + ' with equal checksums, ' +
		'their difference pictures agree');
}

async function caseHostile(browser) {
	const trace = path.join(out, 'hostile.zst');
	run(env.HWCT_HOSTILE_GEN, [trace]);
	const resultsPath = path.join(out, 'x"<script>window.__hwctPwned=9<\\script>.json');
	replay(trace, 'vkms-6.1-overlays.json', resultsPath);
	const html = path.join(out, 'hostile.html');
	const text = report(trace, [resultsPath, resultsPath], html);
	check((text.match(/<script/gi) || []).length === 2, 'the page source has ' + (text.match(/<script/gi) || []).length +
		' <script tags, not 2');
	check(!text.includes('</script><script>window'), 'a hostile string reached the page source unescaped');
	const page = await open(browser, html);
	const facts = await page.evaluate('({ pwned: window.__hwctPwned === undefined ? null : window.__hwctPwned, ' +
		'scripts: document.scripts.length, imgs: document.images.length, svgs: document.querySelectorAll("svg").length, ' +
		'iframes: document.querySelectorAll("iframe, object, embed").length, ' +
		'handlers: [...document.querySelectorAll("*")].filter((e) => [...e.attributes].some((a) => /^on/i.test(a.name))).length, ' +
		'text: document.body.textContent, title: document.title })');
	check(facts.pwned === null, 'a hostile string ran script: window.__hwctPwned = ' + facts.pwned);
	check(facts.scripts === 2 && facts.imgs === 0 && facts.svgs === 1 && facts.iframes === 0 && facts.handlers === 0,
		'the page gained elements: ' + JSON.stringify({ scripts: facts.scripts, imgs: facts.imgs, svgs: facts.svgs,
			iframes: facts.iframes, handlers: facts.handlers }));
	for (const s of ['</script><script>window.__hwctPwned = 1</script>', '<img src=x onerror="window.__hwctPwned = 2">',
		'"\'><svg onload=window.__hwctPwned=3>', '&lt;b&gt;entity&amp;text&#x3c;', '<b>"x\'&<b>"x\'&']) {
		check(facts.text.includes(s), 'the page does not show the string ' + s + ' as text');
	}
	check(facts.text.includes('invalid \ufffd\ufffd utf-8'), 'invalid UTF-8 is not shown as U+FFFD');
	check(facts.title.includes('hostile.zst'), 'title: ' + facts.title);
	checkNoErrors(page, 'loading');
	console.log('hostile: ' + facts.text.length + ' characters of text, no element or script injected');
}

async function main() {
	fs.rmSync(out, { recursive: true, force: true });
	fs.mkdirSync(out, { recursive: true });
	const browser = await Browser.launch(chromium);
	let status = 0;
	try {
		if (testCase === 'home' || testCase === 'video') {
			await caseTrace(browser, testCase);
		} else if (testCase === 'compare') {
			await caseCompare(browser);
		} else if (testCase === 'pictures') {
			await casePictures(browser);
		} else if (testCase === 'hostile') {
			await caseHostile(browser);
		} else {
			fail('unknown case ' + testCase);
		}
	} catch (e) {
		console.log('FAIL: ' + e.message);
		status = 1;
	}
	await browser.close();
	process.exit(status);
}

main().catch((e) => {
	console.log('FAIL: ' + (e && e.stack || e));
	process.exit(1);
});
