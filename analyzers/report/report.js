/*
 * hwc-trace report: the page's script (embedded by embed.py). It reads the
 * data from the JSON script element "hwct-data" and
 * builds every element with the DOM API; data only ever reaches the page as
 * text (textContent, attribute values), never as markup.
 *
 * Data (analyzers/report/report_trace_json.c, report_results.c): trace, environment,
 * displays, capture, frames (columns: f frame, d display, df display frame,
 * t us, fl flags, n layers, c client layers, e efficiency per mille, a/p/r
 * acquire/present/release fence latency us, s stack), layers (distinct
 * layer states), stacks (arrays of layer indices), results (per file:
 * header, totals, frames columns f, loop, p plan, k checksum, e, ct, mc,
 * img; plans), comparisons (first results file against each other one).
 */
'use strict';
(function () {
	const SVG_NS = 'http://www.w3.org/2000/svg';
	const PALETTE = ['#4285f4', '#34a853', '#fbbc04', '#a142f4', '#24c1e0', '#f538a0', '#ff6d01', '#0b8043',
		'#8d6e63', '#3f51b5'];
	const CLIENT_COLOR = '#9aa0a6';
	const DIFF_COLOR = '#d93025';
	const ON_DEVICE = ['DEVICE', 'SOLID_COLOR', 'CURSOR', 'SIDEBAND', 'DISPLAY_DECORATION'];

	const data = JSON.parse(document.getElementById('hwct-data').textContent);
	const frames = data.frames;
	const frameCount = frames.f.length;
	const results = data.results || [];
	const comparisons = data.comparisons || [];

	/* ------------------------------------------------------------ helpers */

	function el(tag, attrs, ...children) {
		const e = document.createElement(tag);
		for (const [k, v] of Object.entries(attrs || {})) {
			if (v !== null && v !== undefined) {
				e.setAttribute(k, String(v));
			}
		}
		for (const c of children) {
			if (c === null || c === undefined) {
				continue;
			}
			e.appendChild(typeof c === 'object' ? c : document.createTextNode(String(c)));
		}
		return e;
	}

	function svg(tag, attrs) {
		const e = document.createElementNS(SVG_NS, tag);
		for (const [k, v] of Object.entries(attrs || {})) {
			e.setAttribute(k, String(v));
		}
		return e;
	}

	function text(v) {
		return v === null || v === undefined ? '—' : String(v);
	}

	function bytes(n) {
		if (n === null || n === undefined) {
			return '—';
		}
		const units = ['B', 'KiB', 'MiB', 'GiB'];
		let i = 0;
		while (n >= 1024 && i < units.length - 1) {
			n /= 1024;
			i++;
		}
		return (i ? n.toFixed(1) : String(n)) + ' ' + units[i];
	}

	function ms(us) {
		return us < 0 ? '—' : (us / 1000).toFixed(3) + ' ms';
	}

	function shellQuote(s) {
		return /^[A-Za-z0-9_./=:,+-]+$/.test(s) ? s : "'" + String(s).replace(/'/g, "'\\''") + "'";
	}

	function keyValueTable(rows) {
		const t = el('table');
		for (const [k, v] of rows) {
			t.appendChild(el('tr', null, el('td', null, k), el('td', null, typeof v === 'object' && v ? v : text(v))));
		}
		return t;
	}

	function card(title, content) {
		return el('div', { class: 'card' }, el('h3', null, title), content);
	}

	/* ------------------------------------------------------ frame indexing */

	const indexOfFrame = new Map();
	for (let i = 0; i < frameCount; i++) {
		if (!indexOfFrame.has(frames.f[i])) {
			indexOfFrame.set(frames.f[i], i);
		}
	}

	/* per results file: frame number -> its entry (the first play) */
	const resultIndex = results.map((r) => {
		const m = new Map();
		for (let i = 0; i < r.frames.f.length; i++) {
			if (r.frames.loop[i] === 0 && !m.has(r.frames.f[i])) {
				m.set(r.frames.f[i], i);
			}
		}
		return m;
	});

	/* frames marked by any comparison, by trace frame index */
	const differs = new Uint8Array(frameCount);
	const differsAt = comparisons.map(() => new Uint8Array(frameCount));
	comparisons.forEach((c, ci) => {
		for (const [first, last] of c.ranges) {
			for (let f = first; f <= last; f++) {
				const i = indexOfFrame.get(f);
				if (i !== undefined) {
					differs[i] = 1;
					differsAt[ci][i] = 1;
				}
			}
		}
	});

	/* plane colours per results file: planes in ascending id order */
	const planeColors = results.map((r) => {
		const planes = new Set();
		for (const plan of r.plans) {
			for (const p of plan) {
				if (typeof p.pl === 'number') {
					planes.add(p.pl);
				}
			}
		}
		for (const ct of r.frames.ct) {
			if (ct >= 0) {
				planes.add(ct);
			}
		}
		const m = new Map();
		[...planes].sort((a, b) => a - b).forEach((p, i) => {
			m.set(p, i < PALETTE.length ? PALETTE[i] : 'hsl(' + ((i * 137.5) % 360).toFixed(1) + ', 65%, 55%)');
		});
		return m;
	});

	/* embedded pictures of --dump-images runs: "results:frame" -> data URL */
	const images = new Map();
	for (const [ri, frame, src] of data.images || []) {
		if (typeof src === 'string' && src.startsWith('data:image/png;base64,')) {
			images.set(ri + ':' + frame, src);
		}
	}

	const state = { frame: frameCount ? 0 : -1, source: results.length ? 0 : -1, view: [0, frameCount] };

	/* ------------------------------------------------------------- header */

	function buildHeader(root) {
		const tr = data.trace;
		root.appendChild(el('h1', null, 'hwc-trace report: ' + tr.path));
		root.appendChild(el('p', { class: 'muted' }, 'Written by ' + text(tr.writer) + ', format ' + tr.format_version +
			'. Every frame of the trace' + (results.length ? ' and ' + results.length + ' replay result' +
				(results.length > 1 ? 's' : '') : '') + '; this page needs no network.'));
		if (!tr.complete) {
			root.appendChild(el('p', { class: 'warn', id: 'trace-error' }, 'The trace could not be read to the end: ' +
				tr.error));
		}
		const grid = el('div', { class: 'grid', id: 'summary' });
		const env = data.environment;
		if (env) {
			const rows = [['source', env.source], ['host', env.host], ['process', env.process], ['kernel', env.kernel],
				['machine', env.machine], ['android fingerprint', env.android_fingerprint],
				['Mesa', env.mesa_version], ['libdrm', env.libdrm_version], ['HWC2 module', env.hwc2_module],
				['HWC2 capabilities', env.hwc2_capabilities.join(', ') || 'none'],
				['KMS snapshot', env.kms_snapshot ? 'yes' : 'no']];
			for (const [k, v] of env.extra) {
				rows.push([k, v]);
			}
			grid.appendChild(card('Environment', keyValueTable(rows)));
		} else {
			grid.appendChild(card('Environment', el('p', null, 'no Environment record')));
		}
		const dt = el('table');
		for (const d of data.displays) {
			dt.appendChild(el('tr', null, el('td', null, 'display ' + d.id),
				el('td', null, text(d.name) + ', ' + (d.width ? d.width + 'x' + d.height : 'size unknown') +
					(d.vsync_period_ns ? ' @ ' + (1e9 / d.vsync_period_ns).toFixed(2) + ' Hz' : '') + ', ' +
					d.frames + ' frames')));
		}
		grid.appendChild(card('Displays', dt));
		const cap = data.capture;
		grid.appendChild(card('Trace', keyValueTable([
			['frames', tr.frames], ['records', tr.records], ['file', bytes(tr.file_size)],
			['records raw / stored', bytes(tr.raw_bytes) + ' / ' + bytes(tr.stored_bytes)], ['blobs', tr.blobs],
			['pixels captured', tr.pixels], ['seek table', tr.has_seek_table ? 'yes' : 'no (writer did not finish)'],
			['truncated', tr.truncated ? 'yes' : 'no'],
			['capture drops', cap.blobs_dropped + ' blobs (' + bytes(cap.bytes_dropped) + '), ' + cap.records_dropped +
				' records'],
			['frames captured late', cap.late_frames + (cap.frames_capture_late !== cap.late_frames ?
				' (CaptureStats: ' + cap.frames_capture_late + ')' : '')],
		])));
		results.forEach((r, i) => {
			const t = r.totals || {};
			const ag = t.recorded_agreement || {};
			const target = r.target || {};
			grid.appendChild(card('Results ' + (i + 1) + (i === 0 && results.length > 1 ? ' (A)' : ''), keyValueTable([
				['file', r.path], ['target', text(target.kind) + ' ' + text(target.path)],
				['board', r.board ? r.board.name + ' (' + text(r.board.planes) + ' planes)' : null],
				['planner / compositor', text(r.planner) + ' / ' + text(r.compositor)],
				['frames', text(t.frames) + (r.complete ? '' : ' (incomplete: ' + text(r.error) + ')')],
				['mean efficiency', t.mean_efficiency === null || t.mean_efficiency === undefined ? null :
					(100 * t.mean_efficiency).toFixed(1) + ' %'],
				['frames with client composition', t.client_composition_frames],
				['agreement with the recording', ag.layers ? ag.agree + ' / ' + ag.layers + ' layers, ' +
					ag.frames_agreeing + ' frames agree; ' + ag.device_to_client + ' device→client, ' +
					ag.client_to_device + ' client→device' : null],
				['format substituted layers', t.format_substituted_layers],
				['reasons', t.reasons ? Object.entries(t.reasons).filter(([, n]) => n).map(([k, n]) => k + ' ' + n)
					.join(', ') || 'none' : null],
			])));
		});
		root.appendChild(grid);
	}

	/* ----------------------------------------------------------- timeline */

	const ROWS = [
		{ key: 'layers', label: 'layers (client part grey)' },
		{ key: 'eff', label: 'efficiency (recorded)' },
		{ key: 'a', label: 'acquire fence latency' },
		{ key: 'p', label: 'present fence latency' },
		{ key: 'r', label: 'release fence latency' },
	];
	let canvas = null;

	function maxOf(col) {
		let m = 0;
		for (let i = 0; i < frameCount; i++) {
			m = col[i] > m ? col[i] : m;
		}
		return m;
	}
	const scale = { layers: Math.max(1, maxOf(frames.n)), a: maxOf(frames.a), p: maxOf(frames.p), r: maxOf(frames.r) };

	function drawTimeline() {
		const ctx = canvas.getContext('2d');
		const dpr = window.devicePixelRatio || 1;
		const width = Math.max(100, canvas.clientWidth), height = canvas.clientHeight;
		canvas.width = Math.round(width * dpr);
		canvas.height = Math.round(height * dpr);
		ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
		ctx.fillStyle = '#ffffff';
		ctx.fillRect(0, 0, width, height);
		const [v0, v1] = state.view;
		const span = Math.max(1, v1 - v0);
		const diffRows = comparisons.length;
		const markH = diffRows ? 10 * diffRows + 4 : 0;
		const rowH = (height - markH - 14) / ROWS.length;
		ctx.font = '11px sans-serif';
		/* one pixel column summarises the frames under it: maxima (minimum efficiency) */
		for (let x = 0; x < width; x++) {
			const i0 = v0 + Math.floor(x * span / width);
			const i1 = Math.max(i0 + 1, v0 + Math.floor((x + 1) * span / width));
			if (i0 >= v1) {
				break;
			}
			let n = 0, c = 0, e = 1001, a = -1, p = -1, r = -1, d = 0;
			const dd = new Array(diffRows).fill(0);
			for (let i = i0; i < i1 && i < v1; i++) {
				n = Math.max(n, frames.n[i]);
				c = Math.max(c, frames.c[i]);
				if (frames.e[i] >= 0) {
					e = Math.min(e, frames.e[i]);
				}
				a = Math.max(a, frames.a[i]);
				p = Math.max(p, frames.p[i]);
				r = Math.max(r, frames.r[i]);
				d |= differs[i];
				for (let k = 0; k < diffRows; k++) {
					dd[k] |= differsAt[k][i];
				}
			}
			let y = 0;
			const bar = (value, max, color, row) => {
				if (value < 0 || !max) {
					return;
				}
				const h = Math.max(1, (rowH - 14) * Math.min(1, value / max));
				ctx.fillStyle = color;
				ctx.fillRect(x, row * rowH + rowH - 2 - h, 1, h);
			};
			bar(n, scale.layers, '#4285f4', 0);
			bar(c, scale.layers, CLIENT_COLOR, 0);
			if (e <= 1000) {
				bar(e, 1000, '#34a853', 1);
			}
			bar(a, scale.a, '#fbbc04', 2);
			bar(p, scale.p, '#a142f4', 3);
			bar(r, scale.r, '#24c1e0', 4);
			y = ROWS.length * rowH;
			for (let k = 0; k < diffRows; k++) {
				if (dd[k]) {
					ctx.fillStyle = DIFF_COLOR;
					ctx.fillRect(x, y + 2 + 10 * k, 1, 8);
				}
			}
		}
		ctx.fillStyle = '#5f6368';
		ROWS.forEach((row, k) => {
			const max = row.key === 'layers' ? scale.layers + ' max' : row.key === 'eff' ? '100 %' :
				ms(scale[row.key]) + ' max';
			ctx.fillText(row.label + ' (' + max + ')', 4, k * rowH + 11);
			ctx.fillStyle = '#e8eaed';
			ctx.fillRect(0, (k + 1) * rowH - 1, width, 1);
			ctx.fillStyle = '#5f6368';
		});
		ctx.fillText('frames ' + (frameCount ? frames.f[v0] + '–' + frames.f[v1 - 1] : 'none') + ' of ' + frameCount +
			' (wheel: zoom, click: select)', 4, height - 3);
		if (state.frame >= v0 && state.frame < v1) {
			const x = (state.frame - v0 + 0.5) * width / span;
			ctx.fillStyle = '#000000';
			ctx.fillRect(Math.floor(x), 0, 1, ROWS.length * rowH + markH);
		}
	}

	function timelineIndexAt(ev) {
		const rect = canvas.getBoundingClientRect();
		const [v0, v1] = state.view;
		const x = Math.min(Math.max(0, ev.clientX - rect.left), rect.width - 1);
		return Math.min(v1 - 1, v0 + Math.floor(x * (v1 - v0) / rect.width));
	}

	function buildTimeline(root) {
		root.appendChild(el('h2', null, 'Timeline'));
		canvas = el('canvas', { id: 'timeline' });
		root.appendChild(canvas);
		const controls = el('div', { class: 'controls' });
		const reset = el('button', { id: 'zoom-reset' }, 'show all frames');
		reset.addEventListener('click', () => {
			state.view = [0, frameCount];
			drawTimeline();
		});
		controls.appendChild(reset);
		controls.appendChild(el('span', { class: 'muted' }, 'Each pixel column shows the most layers, the lowest ' +
			'efficiency and the slowest fences of the frames under it' + (comparisons.length ? '; the red rows at the ' +
				'bottom mark the frames where results 1 and ' + comparisons.map((c) => c.b + 1).join(', ') +
				' (top to bottom) differ.' : '.')));
		root.appendChild(controls);
		canvas.addEventListener('click', (ev) => {
			if (frameCount) {
				selectIndex(timelineIndexAt(ev));
			}
		});
		canvas.addEventListener('wheel', (ev) => {
			if (!frameCount) {
				return;
			}
			ev.preventDefault();
			const [v0, v1] = state.view;
			const at = timelineIndexAt(ev);
			const span = v1 - v0;
			const next = Math.min(frameCount, Math.max(20, Math.round(span * (ev.deltaY > 0 ? 1.25 : 0.8))));
			let n0 = Math.round(at - (at - v0) * next / span);
			n0 = Math.max(0, Math.min(frameCount - next, n0));
			state.view = [n0, n0 + next];
			drawTimeline();
		}, { passive: false });
		window.addEventListener('resize', drawTimeline);
	}

	/* --------------------------------------------------------- frame view */

	let frameInput, sourceSelect, svgRoot, legend, tableBox, commandsBox, frameTitle;

	function planOf(ri, frame) {
		const i = resultIndex[ri].get(frame);
		if (i === undefined) {
			return null;
		}
		const r = results[ri];
		const p = r.frames.p[i];
		return { index: i, plan: p >= 0 ? r.plans[p] : null, checksum: r.frames.k[i], eff: r.frames.e[i],
			ct: r.frames.ct[i], mc: r.frames.mc[i], image: r.frames.img[i] };
	}

	function planEntry(plan, layerId) {
		if (!plan || !plan.plan) {
			return null;
		}
		return plan.plan.find((p) => p.l === layerId) || null;
	}

	function placementText(p) {
		if (!p) {
			return 'not in the plan';
		}
		let s = typeof p.pl === 'number' ? 'plane ' + p.pl : 'client';
		if (p.c && p.c !== (typeof p.pl === 'number' ? 'DEVICE' : 'CLIENT')) {
			s += ' ' + p.c;
		}
		if (p.r && p.r.length) {
			s += ' (' + p.r.join(', ') + ')';
		}
		return s;
	}

	/* The colour of a layer and what decided it: a plane of the chosen results, or the recorded decision. */
	function layerPaint(layer, plan) {
		if (state.source >= 0) {
			const p = planEntry(plan, layer.id);
			if (p && typeof p.pl === 'number') {
				return { plane: String(p.pl), color: planeColors[state.source].get(p.pl) || PALETTE[0], hatched: false };
			}
			return { plane: p ? 'client' : 'none', color: CLIENT_COLOR, hatched: true };
		}
		if (layer.fin === 'CLIENT') {
			return { plane: 'client', color: CLIENT_COLOR, hatched: true };
		}
		return { plane: 'device', color: PALETTE[0], hatched: false };
	}

	function drawDisplay(index) {
		while (svgRoot.firstChild) {
			svgRoot.removeChild(svgRoot.firstChild);
		}
		while (legend.firstChild) {
			legend.removeChild(legend.firstChild);
		}
		const display = data.displays.find((d) => d.id === frames.d[index]) || {};
		const layers = data.stacks[frames.s[index]].map((k) => data.layers[k]);
		let w = display.width || 0, h = display.height || 0;
		if (!w || !h) {
			for (const l of layers) {
				w = Math.max(w, l.df[2]);
				h = Math.max(h, l.df[3]);
			}
		}
		w = Math.max(1, w);
		h = Math.max(1, h);
		svgRoot.setAttribute('viewBox', '0 0 ' + w + ' ' + h);
		svgRoot.setAttribute('width', String(Math.round(w * Math.min(1, 560 / h))));
		svgRoot.setAttribute('height', String(Math.round(h * Math.min(1, 560 / h))));
		const defs = svg('defs');
		svgRoot.appendChild(defs);
		svgRoot.appendChild(svg('rect', { x: 0, y: 0, width: w, height: h, fill: '#000000' }));
		const plan = state.source >= 0 ? planOf(state.source, frames.f[index]) : null;
		const seen = new Map();
		const labels = [];
		let hatchCount = 0;
		for (const l of layers) {
			const paint = layerPaint(l, plan);
			let fill = paint.color;
			if (paint.hatched) {
				const id = 'hatch-' + hatchCount++;
				const pattern = svg('pattern', { id: id, width: 12, height: 12, patternUnits: 'userSpaceOnUse',
					patternTransform: 'rotate(45)' });
				pattern.appendChild(svg('rect', { x: 0, y: 0, width: 12, height: 12, fill: paint.color,
					'fill-opacity': 0.35 }));
				pattern.appendChild(svg('rect', { x: 0, y: 0, width: 5, height: 12, fill: paint.color }));
				defs.appendChild(pattern);
				fill = 'url(#' + id + ')';
			}
			const r = svg('rect', {
				x: l.df[0], y: l.df[1], width: Math.max(0, l.df[2] - l.df[0]), height: Math.max(0, l.df[3] - l.df[1]),
				fill: fill, 'fill-opacity': 0.45, stroke: paint.color, 'stroke-width': Math.max(2, w / 200),
				class: 'layer-rect', 'data-layer': l.id, 'data-plane': paint.plane, 'data-color': paint.color,
				'data-hatched': paint.hatched ? 'true' : 'false',
			});
			const title = svg('title');
			title.textContent = 'layer ' + l.id + ': ' + (paint.plane === 'client' ? 'client composition' :
				paint.plane === 'device' ? 'device (recorded)' : 'plane ' + paint.plane);
			r.appendChild(title);
			svgRoot.appendChild(r);
			labels.push([l, paint]);
			if (!seen.has(paint.plane)) {
				seen.set(paint.plane, paint);
			}
		}
		/* layer ids above all rectangles, at each one's top left corner */
		const size = Math.max(10, Math.round(h / 30));
		for (const [l, paint] of labels) {
			const t = svg('text', { x: l.df[0] + size / 3, y: l.df[1] + size, 'font-size': size, fill: '#ffffff',
				stroke: '#000000', 'stroke-width': size / 12, 'paint-order': 'stroke', 'font-family': 'sans-serif' });
			t.textContent = String(l.id) + (paint.plane === 'client' ? ' (client)' : '');
			svgRoot.appendChild(t);
		}
		for (const [plane, paint] of seen) {
			const sw = el('span', { class: 'swatch' + (paint.hatched ? ' hatched' : '') });
			sw.style.backgroundColor = paint.color;
			legend.appendChild(el('li', { 'data-plane': plane }, sw, plane === 'client' ? 'client composition' :
				plane === 'device' ? 'device (recorded decision)' : plane === 'none' ? 'not in the plan' :
					'plane ' + plane));
		}
	}

	function layerTable(index) {
		const frame = frames.f[index];
		const layers = data.stacks[frames.s[index]].map((k) => data.layers[k]);
		const plans = results.map((_, ri) => planOf(ri, frame));
		const head = ['layer', 'z', 'buffer', 'format', 'blend', 'alpha', 'transform', 'display frame', 'source crop',
			'recorded'];
		results.forEach((_, ri) => head.push('plan ' + (ri + 1)));
		const t = el('table', { class: 'layers', id: 'layer-table' });
		t.appendChild(el('tr', null, ...head.map((h) => el('th', null, h))));
		for (const l of layers) {
			const fmt = [l.fmt, l.hal].filter((v) => v !== null).join(' / ') || '—';
			const row = el('tr', { 'data-layer': l.id },
				el('td', null, l.id),
				el('td', null, l.z),
				el('td', null, l.buf === null ? 'none' : l.buf + (l.size ? ' (' + l.size[0] + 'x' + l.size[1] + ')' : '') +
					(l.content ? '' : ', no content')),
				el('td', null, fmt + (l.mod && l.mod !== '0x0' ? ', modifier ' + l.mod : '') +
					(l.color ? ', colour ' + l.color : '')),
				el('td', null, l.blend),
				el('td', null, l.alpha),
				el('td', null, l.tr === null ? 'none' : l.tr),
				el('td', null, l.df.join(', ')),
				el('td', null, l.crop.join(', ')),
				el('td', null, l.req === l.fin ? l.fin : l.req + ' → ' + l.fin));
			const first = plans[0] ? planEntry(plans[0], l.id) : null;
			plans.forEach((p, ri) => {
				const e = p ? planEntry(p, l.id) : null;
				let s = p ? placementText(e) : 'frame not replayed';
				if (e && e.as && e.as.length) {
					s += '; ' + e.as.join(', ');	/* assumed-scaling, assumed-bandwidth */
				}
				if (e && e.fs) {
					s += '; shown as ' + e.fs[1] + ' (recorded ' + e.fs[0] + ')';
				}
				const same = ri === 0 || (e && first && e.pl === first.pl && String(e.r) === String(first.r));
				/* agreement with the recording as `hwc-trace diff --against-recorded` counts it */
				const recordedDevice = ON_DEVICE.includes(l.fin), recordedClient = l.fin === 'CLIENT';
				const disagrees = e && (recordedDevice || recordedClient) &&
					(typeof e.pl === 'number') !== recordedDevice;
				const cls = [same ? null : 'differs', disagrees ? 'disagrees' : null].filter((c) => c).join(' ');
				row.appendChild(el('td', { class: cls || null, 'data-results': ri, title: disagrees ? 'the recorded device decided ' +
					l.fin : null }, s + (disagrees ? ' ≠ recorded ' + l.fin : '')));
			});
			t.appendChild(row);
		}
		return t;
	}

	function frameFacts(index) {
		const frame = frames.f[index];
		const rows = [
			['display / display frame', frames.d[index] + ' / ' + frames.df[index]],
			['time', (frames.t[index] / 1e6).toFixed(6) + ' s after the first frame'],
			['layers', frames.n[index] + ' (' + frames.c[index] + ' client-composited as recorded)'],
			['efficiency (recorded)', frames.e[index] < 0 ? '—' : (frames.e[index] / 10).toFixed(1) + ' %'],
			['fences: acquire / present / release', ms(frames.a[index]) + ' / ' + ms(frames.p[index]) + ' / ' +
				ms(frames.r[index])],
		];
		const flags = [];
		if (frames.fl[index] & 1) {
			flags.push('capture late');
		}
		if (frames.fl[index] & 2) {
			flags.push('presented without validate');
		}
		if (frames.fl[index] & 4) {
			flags.push('present error');
		}
		if (flags.length) {
			rows.push(['flags', flags.join(', ')]);
		}
		results.forEach((_, ri) => {
			const p = planOf(ri, frame);
			rows.push(['results ' + (ri + 1), p ? 'checksum ' + text(p.checksum) + ', efficiency ' +
				(p.eff < 0 ? '—' : (p.eff / 10).toFixed(1) + ' %') + ', client target ' +
				(p.ct < 0 ? 'no plane' : 'plane ' + p.ct) + (p.mc ? ', ' + p.mc + ' layers without content' : '') +
				(p.image ? ', image ' + p.image : '') : 'not replayed']);
		});
		comparisons.forEach((c, ci) => {
			rows.push(['results 1 vs ' + (c.b + 1), differsAt[ci][index] ? 'differ' : 'same']);
		});
		return keyValueTable(rows);
	}

	/* The pictures of a frame, and where two results differ, their difference drawn in red. */
	function pictures(index) {
		const frame = frames.f[index];
		const box = el('div', { class: 'pictures', id: 'frame-pictures' });
		if (!images.size) {
			return box;
		}
		box.appendChild(el('h3', null, 'Pictures'));
		const shown = [];
		results.forEach((r, ri) => {
			const src = images.get(ri + ':' + frame);
			if (src) {
				const img = el('img', { alt: 'results ' + (ri + 1) + ', frame ' + frame, 'data-results': ri });
				img.src = src;
				box.appendChild(el('figure', null, img, el('figcaption', null, 'results ' + (ri + 1))));
				shown.push([ri, img]);
			}
		});
		if (!shown.length) {
			box.appendChild(el('p', { class: 'muted' }, 'No picture of this frame was embedded (hwc-replay ' +
				'--dump-images; hwc-trace report --max-image-bytes).'));
		}
		const base = shown.find(([ri]) => ri === 0);
		for (const [ri, img] of shown) {
			if (!base || ri === 0) {
				continue;
			}
			const canvasDiff = el('canvas', { class: 'difference', 'data-results': ri });
			const caption = el('figcaption', null, 'difference 1 vs ' + (ri + 1));
			box.appendChild(el('figure', null, canvasDiff, caption));
			Promise.all([base[1].decode(), img.decode()]).then(() => {
				const w = Math.min(base[1].naturalWidth, img.naturalWidth), h = Math.min(base[1].naturalHeight,
					img.naturalHeight);
				const read = (image) => {
					const c = document.createElement('canvas');
					c.width = w;
					c.height = h;
					const ctx = c.getContext('2d');
					ctx.drawImage(image, 0, 0);
					return ctx.getImageData(0, 0, w, h);
				};
				const a = read(base[1]), b = read(img);
				canvasDiff.width = w;
				canvasDiff.height = h;
				const ctx = canvasDiff.getContext('2d');
				const outData = ctx.createImageData(w, h);
				let differing = 0;
				for (let i = 0; i < a.data.length; i += 4) {
					const d = Math.abs(a.data[i] - b.data[i]) + Math.abs(a.data[i + 1] - b.data[i + 1]) +
						Math.abs(a.data[i + 2] - b.data[i + 2]);
					const y = (a.data[i] + a.data[i + 1] + a.data[i + 2]) / 12;
					outData.data[i] = d ? 255 : y;
					outData.data[i + 1] = d ? 0 : y;
					outData.data[i + 2] = d ? 0 : y;
					outData.data[i + 3] = 255;
					differing += d ? 1 : 0;
				}
				ctx.putImageData(outData, 0, 0);
				caption.textContent = 'difference 1 vs ' + (ri + 1) + ': ' + differing + ' pixels differ' +
					(base[1].naturalWidth !== img.naturalWidth || base[1].naturalHeight !== img.naturalHeight ?
						' (sizes differ)' : '');
				canvasDiff.setAttribute('data-differing', String(differing));
			}).catch(() => {
				caption.textContent = 'difference 1 vs ' + (ri + 1) + ': a picture could not be decoded';
			});
		}
		return box;
	}

	function selectIndex(index) {
		if (index < 0 || index >= frameCount) {
			return;
		}
		state.frame = index;
		const frame = frames.f[index];
		frameInput.value = String(frame);
		frameTitle.textContent = 'Frame ' + frame + (differs[index] ? ' — results differ' : '');
		frameTitle.className = differs[index] ? 'warn' : '';
		drawDisplay(index);
		while (tableBox.firstChild) {
			tableBox.removeChild(tableBox.firstChild);
		}
		tableBox.appendChild(frameFacts(index));
		tableBox.appendChild(layerTable(index));
		tableBox.appendChild(pictures(index));
		const path = shellQuote(data.trace.path);
		commandsBox.textContent = 'hwc-trace dump ' + path + ' --frames ' + frame + '\n' +
			'hwc-trace extract ' + path + ' --frame ' + frame + ' frame-' + frame;
		const [v0, v1] = state.view;
		if (index < v0 || index >= v1) {
			const span = v1 - v0;
			const n0 = Math.max(0, Math.min(frameCount - span, index - Math.floor(span / 2)));
			state.view = [n0, n0 + span];
		}
		drawTimeline();
		document.body.setAttribute('data-frame', String(frame));
	}

	function selectFrame(frame) {
		const i = indexOfFrame.get(Number(frame));
		if (i !== undefined) {
			selectIndex(i);
		}
	}

	function nextDifference(step) {
		for (let i = state.frame + step; i >= 0 && i < frameCount; i += step) {
			if (differs[i]) {
				selectIndex(i);
				return;
			}
		}
	}

	function buildFrameView(root) {
		root.appendChild(el('h2', null, 'Frame view'));
		const controls = el('div', { class: 'controls' });
		frameInput = el('input', { type: 'number', id: 'frame-input', min: frameCount ? frames.f[0] : 0,
			max: frameCount ? frames.f[frameCount - 1] : 0 });
		frameInput.addEventListener('change', () => selectFrame(frameInput.value));
		const prev = el('button', { id: 'frame-prev' }, '◀ previous');
		prev.addEventListener('click', () => selectIndex(state.frame - 1));
		const next = el('button', { id: 'frame-next' }, 'next ▶');
		next.addEventListener('click', () => selectIndex(state.frame + 1));
		controls.append(el('label', { for: 'frame-input' }, 'frame'), frameInput, prev, next);
		if (comparisons.length) {
			const pd = el('button', { id: 'diff-prev' }, '◀ difference');
			pd.addEventListener('click', () => nextDifference(-1));
			const nd = el('button', { id: 'diff-next' }, 'difference ▶');
			nd.addEventListener('click', () => nextDifference(1));
			controls.append(pd, nd);
		}
		if (results.length) {
			sourceSelect = el('select', { id: 'plan-source' });
			results.forEach((r, i) => sourceSelect.appendChild(el('option', { value: i }, 'planes of results ' +
				(i + 1) + ': ' + r.path)));
			sourceSelect.appendChild(el('option', { value: -1 }, 'recorded decisions'));
			sourceSelect.addEventListener('change', () => {
				state.source = Number(sourceSelect.value);
				selectIndex(state.frame);
			});
			controls.append(el('label', { for: 'plan-source' }, 'colours:'), sourceSelect);
		}
		root.appendChild(controls);
		frameTitle = el('h3', { id: 'frame-title' });
		root.appendChild(frameTitle);
		const view = el('div', { class: 'frame-view' });
		svgRoot = svg('svg', { id: 'display-svg' });
		legend = el('ul', { id: 'legend' });
		view.append(svgRoot, el('div', null, el('h3', null, 'Planes'), legend));
		root.appendChild(view);
		tableBox = el('div', { id: 'frame-details' });
		root.appendChild(tableBox);
		root.appendChild(el('h3', null, 'In detail'));
		commandsBox = el('pre', { class: 'commands', id: 'frame-commands' });
		root.appendChild(commandsBox);
		document.addEventListener('keydown', (ev) => {
			if (ev.target === frameInput || ev.target === sourceSelect) {
				return;
			}
			if (ev.key === 'ArrowLeft') {
				selectIndex(state.frame - 1);
			} else if (ev.key === 'ArrowRight') {
				selectIndex(state.frame + 1);
			}
		});
	}

	/* --------------------------------------------------------- comparison */

	function buildComparison(root) {
		if (!comparisons.length) {
			return;
		}
		root.appendChild(el('h2', null, 'Comparison'));
		root.appendChild(el('p', { class: 'muted' }, 'Results 1 (A) against each other results file, frame by ' +
			'frame as `hwc-trace diff A B` compares them: plan (plane or client per layer, client target plane), ' +
			'reasons, checksum.'));
		comparisons.forEach((c, ci) => {
			const box = el('div', { class: 'card comparison', id: 'comparison-' + ci });
			let differing = 0;
			for (const [first, last] of c.ranges) {
				differing += last - first + 1;
			}
			const first = c.ranges.length ? c.ranges[0][0] : null;
			const firstButton = first === null ? 'none' : el('button', { class: 'link', 'data-frame': first }, String(first));
			if (first !== null) {
				firstButton.addEventListener('click', () => selectFrame(first));
			}
			box.appendChild(el('h3', null, 'A: ' + results[0].path + '  vs  B: ' + results[c.b].path));
			box.appendChild(keyValueTable([
				['frames compared', c.compared],
				['frames differing', differing],
				...Object.entries(c.categories).map(([k, n]) => ['  in ' + k, n]),
				['only in A / only in B', c.only_a + ' / ' + c.only_b],
				['first differing frame', firstButton],
			]));
			const list = el('ul', { class: 'ranges', 'data-comparison': ci });
			for (const [a, b] of c.ranges) {
				const btn = el('button', null, a === b ? String(a) : a + '–' + b);
				btn.addEventListener('click', () => selectFrame(a));
				list.appendChild(el('li', { class: 'diff-range', 'data-first': a, 'data-last': b }, btn));
			}
			box.appendChild(el('h3', null, 'Differing frames'));
			box.appendChild(c.ranges.length ? list : el('p', null, 'none'));
			if (c.messages.length) {
				const t = el('table', { class: 'messages' });
				for (const [frame, loop, cat, msg] of c.messages) {
					const btn = el('button', { class: 'link' }, String(frame) + (loop ? ' (play ' + (loop + 1) + ')' : ''));
					btn.addEventListener('click', () => selectFrame(frame));
					t.appendChild(el('tr', null, el('td', null, btn), el('td', null, cat), el('td', null, msg)));
				}
				box.appendChild(el('h3', null, 'Differences' + (c.messages_total > c.messages.length ? ' (first ' +
					c.messages.length + ' of ' + c.messages_total + ')' : '')));
				box.appendChild(el('div', { class: 'scroll' }, t));
			}
			root.appendChild(box);
		});
	}

	/* --------------------------------------------------------------- main */

	const main = el('main');
	document.body.appendChild(main);
	buildHeader(main);
	buildTimeline(main);
	buildFrameView(main);
	buildComparison(main);
	document.title = 'hwc-trace report: ' + data.trace.path;
	if (frameCount) {
		selectIndex(0);
	} else {
		drawTimeline();
	}
	window.hwctReport = { selectFrame: selectFrame, state: state, frameCount: frameCount };
	document.body.setAttribute('data-ready', 'true');
})();
