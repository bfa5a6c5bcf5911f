/*
 * A minimal Chrome DevTools Protocol client for the report tests: starts
 * Debian's chromium headless with --remote-debugging-pipe and speaks the
 * protocol over the pipe (the browser reads commands on its fd 3 and writes
 * replies and events on fd 4, each message JSON ended by a NUL byte). No
 * npm package needed: only Node's standard library.
 */
'use strict';
const { spawn } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

class Browser {
	static async launch(exe) {
		const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'hwct-chromium-'));
		const args = [
			'--headless', '--remote-debugging-pipe', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage',
			'--no-first-run', '--no-default-browser-check', '--disable-extensions', '--disable-sync',
			'--disable-background-networking', '--disable-component-update', '--mute-audio', '--hide-scrollbars',
			'--window-size=1400,1000', '--user-data-dir=' + profile, 'about:blank',
		];
		const proc = spawn(exe, args, { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] });
		const b = new Browser(proc, profile);
		await b.send('Browser.getVersion');
		return b;
	}

	constructor(proc, profile) {
		this.proc = proc;
		this.profile = profile;
		this.nextId = 1;
		this.pending = new Map();
		this.listeners = [];
		this.stderr = '';
		this.buffer = Buffer.alloc(0);
		this.exited = false;
		proc.stdio[2].on('data', (d) => {
			this.stderr = (this.stderr + d.toString()).slice(-4000);
		});
		proc.stdio[4].on('data', (d) => this.receive(d));
		proc.on('exit', () => {
			this.exited = true;
			for (const { reject } of this.pending.values()) {
				reject(new Error('chromium exited; its last output:\n' + this.stderr));
			}
			this.pending.clear();
		});
	}

	receive(chunk) {
		this.buffer = Buffer.concat([this.buffer, chunk]);
		let end;
		while ((end = this.buffer.indexOf(0)) >= 0) {
			const msg = JSON.parse(this.buffer.subarray(0, end).toString('utf8'));
			this.buffer = this.buffer.subarray(end + 1);
			if (msg.id !== undefined) {
				const p = this.pending.get(msg.id);
				this.pending.delete(msg.id);
				if (p && msg.error) {
					p.reject(new Error(p.method + ': ' + msg.error.message));
				} else if (p) {
					p.resolve(msg.result);
				}
			} else {
				for (const l of this.listeners) {
					l(msg);
				}
			}
		}
	}

	send(method, params, sessionId) {
		if (this.exited) {
			return Promise.reject(new Error('chromium is not running'));
		}
		const id = this.nextId++;
		const msg = { id, method, params: params || {} };
		if (sessionId) {
			msg.sessionId = sessionId;
		}
		return new Promise((resolve, reject) => {
			this.pending.set(id, { resolve, reject, method });
			this.proc.stdio[3].write(JSON.stringify(msg) + '\0');
		});
	}

	/* A new tab with its session; page errors are collected in page.errors. */
	async newPage() {
		const { targetId } = await this.send('Target.createTarget', { url: 'about:blank' });
		const { sessionId } = await this.send('Target.attachToTarget', { targetId, flatten: true });
		const page = new Page(this, sessionId);
		this.listeners.push((msg) => {
			if (msg.sessionId === sessionId) {
				page.event(msg);
			}
		});
		await page.send('Page.enable');
		await page.send('Runtime.enable');
		await page.send('Log.enable');
		return page;
	}

	async close() {
		if (!this.exited) {
			const exited = new Promise((resolve) => this.proc.on('exit', resolve));
			this.send('Browser.close').catch(() => {});
			const timer = setTimeout(() => this.proc.kill('SIGKILL'), 5000);
			await exited;
			clearTimeout(timer);
		}
		fs.rmSync(this.profile, { recursive: true, force: true });
	}
}

class Page {
	constructor(browser, sessionId) {
		this.browser = browser;
		this.sessionId = sessionId;
		this.errors = [];
		this.waiters = [];
	}

	send(method, params) {
		return this.browser.send(method, params, this.sessionId);
	}

	event(msg) {
		const p = msg.params || {};
		if (msg.method === 'Runtime.exceptionThrown') {
			const d = p.exceptionDetails || {};
			this.errors.push('exception: ' + (d.exception && d.exception.description || d.text));
		} else if (msg.method === 'Runtime.consoleAPICalled' && (p.type === 'error' || p.type === 'assert')) {
			this.errors.push('console.' + p.type + ': ' + p.args.map((a) => a.value || a.description).join(' '));
		} else if (msg.method === 'Log.entryAdded' && p.entry.level === 'error') {
			this.errors.push('log: ' + p.entry.text + (p.entry.url ? ' (' + p.entry.url + ')' : ''));
		}
		this.waiters = this.waiters.filter((w) => !(w.method === msg.method && (w.resolve(p), true)));
	}

	/* Resolves at the next event named method. No deadline of its own: how long a
	 * page takes depends on the host's load, and meson's test timeout bounds a hang. */
	waitFor(method) {
		return new Promise((resolve) => this.waiters.push({ method, resolve }));
	}

	async goto(url) {
		const loaded = this.waitFor('Page.loadEventFired');
		const r = await this.send('Page.navigate', { url });
		if (r.errorText) {
			throw new Error('navigating to ' + url + ': ' + r.errorText);
		}
		await loaded;
	}

	/* The value of a JavaScript expression (awaited), or an Error for what it threw. */
	async evaluate(expression) {
		const r = await this.send('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true });
		if (r.exceptionDetails) {
			const d = r.exceptionDetails;
			throw new Error('evaluating ' + expression.slice(0, 80) + ': ' +
				(d.exception && d.exception.description || d.text));
		}
		return r.result.value;
	}

	/* PNG bytes of the page, or of a rectangle of it ({x, y, width, height} CSS pixels). */
	async screenshot(clip) {
		const params = { format: 'png' };
		if (clip) {
			params.clip = Object.assign({ scale: 1 }, clip);
		}
		const r = await this.send('Page.captureScreenshot', params);
		return Buffer.from(r.data, 'base64');
	}
}

module.exports = { Browser };
