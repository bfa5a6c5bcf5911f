/*
 * Measures a report page in headless chromium (cdp.js): the time from
 * navigation to the page being ready, the time to select a frame and to
 * redraw the whole timeline, and the JavaScript heap. The numbers in
 * docs/report.md come from it.
 *
 * usage: node tests/report/measure.js REPORT.html [CHROMIUM]
 */
'use strict';
const path = require('path');
const { Browser } = require('./cdp.js');

async function main() {
	const html = process.argv[2];
	const browser = await Browser.launch(process.argv[3] || '/usr/bin/chromium');
	try {
		const page = await browser.newPage();
		const t0 = Date.now();
		await page.goto('file://' + path.resolve(html));
		await page.evaluate('new Promise((resolve) => (function poll() { if (document.body.dataset.ready === "true") ' +
			'resolve(); else setTimeout(poll, 20); })())');
		const load = Date.now() - t0;
		const m = await page.evaluate('(() => { const r = window.hwctReport; const n = r.frameCount; ' +
			'let t = performance.now(); for (let k = 0; k < 20; k++) r.selectFrame(Math.floor(n * k / 20)); ' +
			'const select = (performance.now() - t) / 20; ' +
			't = performance.now(); window.dispatchEvent(new Event("resize")); const redraw = performance.now() - t; ' +
			'return { frames: n, select_ms: select, timeline_ms: redraw, ' +
			'heap_mb: performance.memory ? performance.memory.usedJSHeapSize / 1048576 : null }; })()');
		m.load_ms = load;
		m.errors = page.errors;
		console.log(JSON.stringify(m));
	} finally {
		await browser.close();
	}
}

main().catch((e) => {
	console.log('error: ' + (e && e.stack || e));
	process.exit(1);
});
