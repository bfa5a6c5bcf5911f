#!/usr/bin/env python3
"""Generate the HWC2 wrappers of the recorder (hwc2_wrappers.c / .h).

Reads every `typedef RET (*HWC2_PFN_NAME)(PARAMS);` of hardware/hwcomposer2.h
and writes, for each function descriptor, a wrapper with exactly that
prototype (checked by a _Static_assert per wrapper) that records its
arguments through the helpers of recorder/call.h around the real call, and,
for each callback type, a trampoline that records the callback and calls
the client's function. The header gets one REC_ARG_<FUNCTION>_<PARAM> index
per parameter, which the record encoder (encode_*.c) uses, so a renamed
or reordered parameter breaks the build instead of being misread.

Each parameter is classified by the RULES below from its type and name. A
parameter no rule matches is an error: a header change the recorder does
not understand fails the build.

Usage: gen-wrappers.py --out-c FILE.c --out-h FILE.h hwcomposer2.h
"""

import argparse
import collections
import re
import sys

EXPECTED_FUNCTIONS = 70

COMMENT_RE = re.compile(r'/\*.*?\*/|//[^\n]*', re.S)
PFN_RE = re.compile(r'typedef\s+([\w\s\*]+?)\s*\(\s*\*\s*HWC2_PFN_(\w+)\s*\)\s*\((.*?)\)\s*;', re.S)
ENUM_VALUE_RE = re.compile(r'\bHWC2_(FUNCTION|CALLBACK)_(\w+)\s*=\s*(\d+)')
PARAM_RE = re.compile(r'^(.*?)(\w+)\s*(\[\s*\d+\s*\])?$', re.S)

SCALARS = {'int32_t', 'uint32_t', 'uint64_t', 'int64_t', 'uint8_t', 'bool', 'float',
	'hwc2_config_t', 'hwc2_vsync_period_t'}
BY_VALUE_STRUCTS = {'hwc_rect_t', 'hwc_frect_t', 'hwc_color_t', 'hwc_float_color_t'}
STRUCT_POINTERS = {'hwc_vsync_period_change_constraints_t', 'hwc_vsync_period_change_timeline_t',
	'hwc_client_target_property_t'}
COUNT_NAMES = {'out_count', 'out_size', 'out_key_length'}
OUT_ARRAYS = {'out_layers', 'out_types', 'out_configs', 'out_name', 'out_buffer', 'out_key',
	'out_data', 'out_modes', 'out_intents', 'out_keys', 'out_capabilities',
	'out_layer_requests'}
IN_COUNT_NAMES = re.compile(r'^(count|\w+_length)$')

# Length expressions of input arrays whose length is not the preceding count.
IN_ARRAY_LENGTH = {
	('SET_LAYER_PER_FRAME_METADATA_BLOBS', 'metadata'): 'rec_sum_u32(sizes, count)',
}
# Functions whose real call is made by a hand-written helper (call.h).
CALL_OVERRIDE = {
	'REGISTER_CALLBACK': ('rec_register_callback(',
		['&call', 'real', 'device', 'descriptor', 'callback_data', 'pointer']),
}


# Functions whose wrapper also keeps the composition types for the LTTng
# validate event (track.c, tp.h): statements before the real call, and after
# it (with `ret`, its return value). Other wrappers pay nothing for it.
TRACK = {
	'CREATE_LAYER': ([], ['rec_track_create_layer(display, ret, out_layer);']),
	'DESTROY_LAYER': ([], ['rec_track_destroy_layer(display, layer);']),
	'SET_LAYER_COMPOSITION_TYPE': ([], ['rec_track_composition_type(display, layer, type, ret);']),
	'VALIDATE_DISPLAY': ([], ['rec_track_validate(display, ret, out_num_types, out_num_requests);']),
	'GET_CHANGED_COMPOSITION_TYPES': (
		['uint32_t capacity = out_count ? *out_count : 0;'],
		['rec_track_changed_types(display, ret, capacity, out_count, out_layers, out_types);']),
	'ACCEPT_DISPLAY_CHANGES': ([], ['rec_track_accept(display);']),
}


# The functions a composer calls in every frame, in about the order
# SurfaceFlinger calls them (each layer's state, then the display's
# validate/present sequence). Their wrappers, and the bodies they share,
# are REC_HOT and emitted first in this order, so that a frame's calls run
# through a few contiguous pages of the hot text (hot.h); every other
# wrapper is ordinary cold code. The library compiles this file with
# -fno-toplevel-reorder (meson.build) to keep the order.
FRAME = [
	'SET_LAYER_DISPLAY_FRAME', 'SET_LAYER_SOURCE_CROP', 'SET_LAYER_Z_ORDER', 'SET_LAYER_TRANSFORM',
	'SET_LAYER_BLEND_MODE', 'SET_LAYER_PLANE_ALPHA', 'SET_LAYER_VISIBLE_REGION',
	'SET_LAYER_DATASPACE', 'SET_LAYER_COLOR_TRANSFORM', 'SET_LAYER_SURFACE_DAMAGE',
	'SET_LAYER_PER_FRAME_METADATA', 'SET_LAYER_BUFFER', 'SET_LAYER_COLOR',
	'SET_LAYER_COMPOSITION_TYPE', 'SET_COLOR_TRANSFORM', 'VALIDATE_DISPLAY',
	'GET_CHANGED_COMPOSITION_TYPES', 'GET_DISPLAY_REQUESTS', 'ACCEPT_DISPLAY_CHANGES',
	'SET_CLIENT_TARGET', 'PRESENT_DISPLAY', 'GET_RELEASE_FENCES',
]


class GenError(Exception):
	pass


class Param:
	def __init__(self, ctype, name, array):
		self.ctype = ' '.join(ctype.split())
		self.name = name
		self.array = array
		self.base = self.ctype.replace('const ', '').replace('*', '').strip()
		self.pointer = '*' in self.ctype
		self.const = self.ctype.startswith('const ')

	def decl(self):
		sep = '' if self.ctype.endswith('*') else ' '
		return '%s%s%s%s' % (self.ctype, sep, self.name, self.array)


def parse_params(text, where):
	params = []
	for raw in text.split(','):
		raw = ' '.join(raw.split())
		m = PARAM_RE.match(raw)
		if not m or not m.group(1).strip():
			raise GenError('%s: cannot parse parameter "%s"' % (where, raw))
		params.append(Param(m.group(1).strip(), m.group(2), (m.group(3) or '').replace(' ', '')))
	return params


def classify(fn, p, index, params, is_callback):
	"""Returns (before, after) lists of C statements recording p."""
	i = str(index - 1)
	n = p.name
	t = p.base
	where = 'HWC2_PFN_%s parameter %s %s' % (fn, p.ctype, n)

	if p.array:
		if fn == 'GET_DISPLAYED_CONTENT_SAMPLE' and n == 'out_samples_size':
			return (['rec_arg_samples_in(&call, %s, %s);' % (i, n)], [])
		if fn == 'GET_DISPLAYED_CONTENT_SAMPLE' and n == 'out_samples':
			return ([], ['rec_arg_samples_out(&call, %s, out_samples_size, %s);' % (i, n)])
		raise GenError('%s: array parameter not understood' % where)
	if t == 'hwc2_display_t' and n == 'display' and not p.pointer:
		return (['rec_arg_display(&call, %s, %s);' % (i, n)], [])
	if t == 'hwc2_layer_t' and n == 'layer' and not p.pointer:
		return (['rec_arg_layer(&call, %s, %s);' % (i, n)], [])
	if t == 'buffer_handle_t':
		return (['rec_arg_handle(&call, %s, %s);' % (i, n)], [])
	if t == 'native_handle_t' and p.pointer and p.const:
		return (['rec_arg_handle_id(&call, %s, %s);' % (i, n)], [])
	if t == 'hwc_region_t' and not p.pointer:
		return (['rec_arg_region(&call, %s, %s);' % (i, n)], [])
	if t in BY_VALUE_STRUCTS and not p.pointer:
		return (['rec_arg_bytes(&call, %s, &%s, sizeof(%s));' % (i, n, n)], [])
	if t in STRUCT_POINTERS and p.pointer:
		if n.startswith('out_'):
			return ([], ['rec_arg_bytes(&call, %s, %s, sizeof(*%s));' % (i, n, n)])
		return (['rec_arg_bytes(&call, %s, %s, sizeof(*%s));' % (i, n, n)], [])
	if t in ('hwc2_callback_data_t', 'hwc2_function_pointer_t') and not is_callback:
		return (['rec_arg_pointer(&call, %s, %s != NULL);' % (i, n)], [])
	if t == 'int32_t' and n.endswith('fence') and not p.pointer:
		return (['rec_arg_fence_in(&call, %s, %s);' % (i, n)], [])
	if t == 'int32_t' and p.pointer and n in ('out_present_fence', 'out_fence'):
		return ([], ['rec_arg_fence_out(&call, %s, %s);' % (i, n)])
	if t == 'int32_t' and p.pointer and n == 'out_fences':
		return ([], ['rec_arg_fences_out(&call, %s, %s, %d);' % (i, n, count_index(fn, params, index))])
	if t == 'float' and p.pointer and n == 'matrix' and p.const:
		return (['rec_arg_in_array(&call, %s, %s, sizeof(*%s), 16);' % (i, n, n)], [])
	if t == 'float' and p.pointer and n == 'out_matrix':
		return ([], ['rec_arg_out_array_fixed(&call, %s, %s, sizeof(*%s), 16);' % (i, n, n)])
	if t in SCALARS and p.pointer and n in COUNT_NAMES:
		return (['rec_arg_count_in(&call, %s, %s, sizeof(*%s));' % (i, n, n)],
			['rec_arg_count_out(&call, %s, %s, sizeof(*%s));' % (i, n, n)])
	if (t in SCALARS or t in ('char', 'hwc2_layer_t')) and p.pointer and n in OUT_ARRAYS:
		return ([], ['rec_arg_out_array(&call, %s, %s, sizeof(*%s), %d);' %
			(i, n, n, count_index(fn, params, index))])
	if (t in SCALARS or t in ('hwc2_display_t', 'hwc2_layer_t')) and p.pointer and not p.const \
			and n.startswith('out_'):
		return ([], ['rec_arg_out(&call, %s, %s);' % (i, n)])
	if t in SCALARS and p.pointer and not p.const:
		# in/out value (createVirtualDisplay's format)
		return (['rec_arg_inout_in(&call, %s, %s);' % (i, n)], ['rec_arg_inout_out(&call, %s, %s);' % (i, n)])
	if (t in SCALARS or t == 'char') and p.pointer and p.const:
		length = IN_ARRAY_LENGTH.get((fn, n)) or in_count_name(fn, params, index)
		return (['rec_arg_in_array(&call, %s, %s, sizeof(*%s), %s);' % (i, n, n, length)], [])
	if (t in SCALARS or t in ('hwc2_display_t',)) and not p.pointer:
		return (['rec_arg_in(&call, %s, %s);' % (i, n)], [])
	raise GenError('%s: no rule for it' % where)


def count_index(fn, params, index):
	"""Argument index of the count parameter an output array belongs to."""
	for j in range(index, 0, -1):
		if params[j].name in COUNT_NAMES:
			return j - 1
	raise GenError('HWC2_PFN_%s: %s has no count parameter before it' % (fn, params[index].name))


def in_count_name(fn, params, index):
	for j in range(index, 0, -1):
		if IN_COUNT_NAMES.match(params[j].name) and not params[j].pointer:
			return params[j].name
	raise GenError('HWC2_PFN_%s: %s has no length parameter before it' % (fn, params[index].name))


def lower(name):
	return name.lower()


def wrap_list(head, items, tail, indent=''):
	"""head + items joined by ', ' + tail, broken before 100 columns (tabs count 8)."""
	lines = []
	cur = indent + head
	for k, item in enumerate(items):
		piece = item + (', ' if k + 1 < len(items) else tail)
		width = len(cur.replace('\t', ' ' * 8)) + len(piece.rstrip())
		if width > 100 and cur.strip() not in (head.strip(), ''):
			lines.append(cur.rstrip())
			cur = indent + '\t' + piece
		else:
			cur += piece
	if not items:
		cur += tail
	lines.append(cur)
	return lines


def gen_function(fn, value, ret, params, out_h):
	if not params or params[0].ctype != 'hwc2_device_t *':
		raise GenError('HWC2_PFN_%s: first parameter is not hwc2_device_t *device' % fn)
	args = params[1:]
	nargs = len(args) + (1 if ret == 'uint32_t' else 0)
	if nargs > 8:
		raise GenError('HWC2_PFN_%s: %d arguments, REC_MAX_ARGS is 8' % (fn, nargs))
	before, after = [], []
	for k, p in enumerate(args):
		b, a = classify(fn, p, k + 1, params, False)
		before += b
		after += a
		out_h.append('#define REC_ARG_%s_%s %d' % (fn, p.name.upper(), k))
	if ret == 'uint32_t':
		out_h.append('#define REC_ARG_%s_RETURN %d' % (fn, len(args)))
	elif ret not in ('int32_t', 'void'):
		raise GenError('HWC2_PFN_%s: return type %s not understood' % (fn, ret))

	before += TRACK.get(fn, ([], []))[0]
	if ret == 'uint32_t':
		after.append('rec_arg_in(&call, %d, ret);' % len(args))
	after += TRACK.get(fn, ([], []))[1]
	if fn in CALL_OVERRIDE:
		head, call_args = CALL_OVERRIDE[fn]
	else:
		head, call_args = 'real(', [p.name for p in params]
	return Wrapper(fn, value, ret, params, nargs, before, after, head, call_args)


class Wrapper:
	"""One descriptor's wrapper: its prototype and the statements around the real call."""

	def __init__(self, fn, value, ret, params, nargs, before, after, head, call_args):
		self.fn, self.value, self.ret, self.params, self.nargs = fn, value, ret, params, nargs
		self.before, self.after, self.head, self.call_args = before, after, head, call_args
		self.name = 'wrap_' + lower(fn)

	def renamed(self, names):
		"""(before, after, call_args) with each parameter renamed per names (old -> new)."""
		def sub(text):
			for old, new in names.items():
				text = re.sub(r'\b%s\b' % re.escape(old), new, text)
			return text
		return ([sub(x) for x in self.before], [sub(x) for x in self.after],
			[sub(x) for x in self.call_args])

	def body_key(self):
		"""Equal for wrappers that differ only in the descriptor and parameter names."""
		names = {p.name: 'a%d' % k for k, p in enumerate(self.params[1:])}
		before, after, call_args = self.renamed(names)
		types = tuple(p.ctype + p.array for p in self.params)
		return (self.ret, types, self.nargs, tuple(before), tuple(after), self.head, tuple(call_args))


def body_lines(w, name, function, extra_params, names, attr):
	"""The wrapper body: rec_call_begin .. rec_call_end around the real call."""
	before, after, call_args = w.renamed(names)
	params = [Param(p.ctype, names.get(p.name, p.name), p.array).decl() for p in w.params]
	lines = wrap_list('static %s%s %s(' % (attr, w.ret, name), params + extra_params, ')')
	lines.append('{')
	lines.append('\tstruct rec_call call;')
	lines.append('\tHWC2_PFN_%s real =' % w.fn)
	lines.append('\t\t(HWC2_PFN_%s)rec_call_begin(&call, device, %s, %d);' % (w.fn, function, w.nargs))
	if w.ret != 'void':
		lines.append('\t%s ret;' % w.ret)
	lines.append('')
	lines.append('\tif (!real) {')
	lines.append('\t\treturn%s;' % {'int32_t': ' HWC2_ERROR_BAD_PARAMETER', 'uint32_t': ' 0',
		'void': ''}[w.ret])
	lines.append('\t}')
	lines += ['\t' + s for s in before]
	lines.append('\trec_call_enter(&call);')
	if w.ret == 'void':
		lines += wrap_list(w.head, call_args, ');', '\t')
		lines.append('\trec_call_exit(&call, 0);')
	else:
		lines += wrap_list('ret = ' + w.head, call_args, ');', '\t')
		lines.append('\trec_call_exit(&call, %s);' % ('ret' if w.ret == 'int32_t' else '0'))
	lines += ['\t' + s for s in after]
	lines.append('\trec_call_end(&call);')
	if w.ret != 'void':
		lines.append('\treturn ret;')
	lines.append('}')
	return lines


def gen_bodies(wrappers):
	"""
	C text of every wrapper, those of FRAME first and in its order.
	Wrappers that differ only in their descriptor and parameter names (the
	setters of one value type) share one body, which takes the descriptor
	as a last argument; each of them is then a tail call of a few bytes. A
	frame's calls, made after the composer drew and found the recorder's
	code cold, fetch one body's lines for several functions instead of a
	copy each.
	"""
	groups = collections.OrderedDict()
	for w in wrappers:
		groups.setdefault(w.body_key(), []).append(w)
	group_of = {w.fn: members for members in groups.values() for w in members}
	rank = {fn: k for k, fn in enumerate(FRAME)}
	order = sorted(wrappers, key=lambda w: (rank.get(w.fn, len(FRAME)), w.value))
	out, bodies_done = [], set()
	for w in order:
		members = group_of[w.fn]
		hot = any(m.fn in rank for m in members)
		attr = 'REC_HOT ' if hot else ''
		if len(members) < 2:
			out.append('/* %d %s */' % (w.value, w.fn))
			out += body_lines(w, w.name, str(w.value), [], {}, attr)
			out.append('REC_SHAPE(%s, HWC2_PFN_%s);' % (w.name, w.fn))
			out.append('')
			continue
		first = members[0]
		body = 'body_%s' % lower(first.fn)
		if body not in bodies_done:
			bodies_done.add(body)
			names = {p.name: 'a%d' % j for j, p in enumerate(first.params[1:])}
			out.append('/* the body of %s */' % ', '.join(m.fn for m in members))
			out += body_lines(first, body, 'function', ['int32_t function'], names, attr + 'REC_NO_IPA ')
			out.append('')
		out.append('/* %d %s */' % (w.value, w.fn))
		out += wrap_list('static %s%s %s(' % (attr, w.ret, w.name), [p.decl() for p in w.params], ')')
		out.append('{')
		call = wrap_list('%s(' % body, [p.name for p in w.params] + [str(w.value)], ');', '\t')
		call[0] = call[0].replace('\t', '\t' if w.ret == 'void' else '\treturn ', 1)
		out += call
		out.append('}')
		out.append('REC_SHAPE(%s, HWC2_PFN_%s);' % (w.name, w.fn))
		out.append('')
	return out


def gen_callback(cb, value, ret, params, out_h):
	if ret != 'void' or not params or params[0].ctype != 'hwc2_callback_data_t':
		raise GenError('HWC2_PFN_%s: not a callback (void, data first)' % cb)
	before = []
	for k, p in enumerate(params[1:]):
		b, a = classify(cb, p, k + 1, params, True)
		if a:
			raise GenError('HWC2_PFN_%s: callback parameter %s is an output' % (cb, p.name))
		before += b
		out_h.append('#define REC_CBARG_%s_%s %d' % (cb, p.name.upper(), k))
	name = 'trampoline_' + lower(cb)
	lines = ['/* callback %d %s */' % (value, cb)]
	lines += wrap_list('static void %s(' % name, [p.decl() for p in params], ')')
	lines.append('{')
	lines.append('\tstruct rec_call call;')
	lines.append('\tHWC2_PFN_%s client =' % cb)
	lines.append('\t\t(HWC2_PFN_%s)rec_callback_begin(&call, %s, %d, %d);' %
		(cb, params[0].name, value, len(params) - 1))
	lines.append('')
	lines += ['\t' + s for s in before]
	lines.append('\trec_callback_end(&call);')
	lines.append('\tif (client) {')
	lines.append('\t\tclient(rec_callback_data(%s), %s);' % (params[0].name,
		', '.join(p.name for p in params[1:])))
	lines.append('\t}')
	lines.append('}')
	lines.append('REC_SHAPE(%s, HWC2_PFN_%s);' % (name, cb))
	return name, '\n'.join(lines)


def main():
	ap = argparse.ArgumentParser()
	ap.add_argument('--out-c', required=True)
	ap.add_argument('--out-h', required=True)
	ap.add_argument('header')
	args = ap.parse_args()

	text = COMMENT_RE.sub(' ', open(args.header).read())
	values = {}
	for m in ENUM_VALUE_RE.finditer(text):
		values[(m.group(1), m.group(2))] = int(m.group(3))

	functions, callbacks = [], []
	h_defs = []
	for m in PFN_RE.finditer(text):
		ret = ' '.join(m.group(1).split())
		name = m.group(2)
		params = parse_params(m.group(3), 'HWC2_PFN_' + name)
		if ('FUNCTION', name) in values:
			functions.append(gen_function(name, values[('FUNCTION', name)], ret, params, h_defs))
		elif ('CALLBACK', name) in values:
			callbacks.append(gen_callback(name, values[('CALLBACK', name)], ret, params, h_defs) +
				(values[('CALLBACK', name)], name))
		else:
			raise GenError('HWC2_PFN_%s names no HWC2_FUNCTION_ or HWC2_CALLBACK_ value' % name)
	for table, names in (('TRACK', TRACK), ('FRAME', FRAME)):
		unknown = sorted(set(names) - set(w.fn for w in functions))
		if unknown:
			raise GenError('%s names functions the header does not have: %s' % (table, ', '.join(unknown)))
	numbers = sorted(w.value for w in functions)
	if numbers != list(range(1, EXPECTED_FUNCTIONS + 1)):
		raise GenError('expected HWC2_PFN_* for descriptors 1..%d, found %s' %
			(EXPECTED_FUNCTIONS, numbers))

	c = ['/*',
		' * HWC2 wrappers and callback trampolines of the recorder. Generated by',
		' * recorder/gen-wrappers.py from hardware/hwcomposer2.h. Do not edit.',
		' */',
		'#include <stdbool.h>',
		'#include <stdint.h>',
		'',
		'#include <hardware/hwcomposer2.h>',
		'',
		'#include "call.h"',
		'#include "callback.h"',
		'#include "hwc2_wrappers.h"',
		'#include "tp.h"',
		'',
		'/* Each wrapper has exactly the prototype of its descriptor. */',
		'#define REC_SHAPE(fn, pfn) \\',
		'\t_Static_assert(_Generic(&(fn), pfn: 1, default: 0), #fn " is not a " #pfn)',
		'']
	c += gen_bodies(functions)
	for name, body, value, fn in callbacks:
		c.append(body)
		c.append('')
	c.append('const struct rec_function rec_functions[REC_FUNCTION_MAX + 1] = {')
	for w in sorted(functions, key=lambda w: w.value):
		c.append('\t[%d] = { "%s", (hwc2_function_pointer_t)%s },' % (w.value, w.fn, w.name))
	c.append('};')
	c.append('')
	c.append('const hwc2_function_pointer_t rec_trampolines[REC_CALLBACK_MAX + 1] = {')
	for name, body, value, cb in sorted(callbacks, key=lambda f: f[2]):
		c.append('\t[%d] = (hwc2_function_pointer_t)%s,' % (value, name))
	c.append('};')
	c.append('')

	h = ['/*',
		' * Tables and argument indices of the generated HWC2 wrappers. Generated by',
		' * recorder/gen-wrappers.py from hardware/hwcomposer2.h. Do not edit.',
		' */',
		'#ifndef REC_HWC2_WRAPPERS_H',
		'#define REC_HWC2_WRAPPERS_H',
		'',
		'#include <hardware/hwcomposer2.h>',
		'',
		'#define REC_FUNCTION_MAX %d' % max(numbers),
		'#define REC_CALLBACK_MAX %d' % max(cb[2] for cb in callbacks),
		'',
		'struct rec_function {',
		'\tconst char *name;\t\t\t/* "SET_LAYER_BUFFER" */',
		'\thwc2_function_pointer_t wrapper;\t/* has the HWC2_PFN_* type of its descriptor */',
		'};',
		'',
		'/* By descriptor; [0] is empty. */',
		'extern const struct rec_function rec_functions[REC_FUNCTION_MAX + 1];',
		'/* Our trampoline per HWC2_CALLBACK_* descriptor; [0] is NULL. */',
		'extern const hwc2_function_pointer_t rec_trampolines[REC_CALLBACK_MAX + 1];',
		'',
		'/* Index of each parameter (after the device / callback data) in rec_event.args. */']
	names = [d.split()[1] for d in h_defs]
	dups = sorted(set(n for n in names if names.count(n) > 1))
	if dups:
		raise GenError('argument index names clash: %s' % ', '.join(dups))
	h += h_defs
	h += ['', '#endif', '']
	with open(args.out_c, 'w') as f:
		f.write('\n'.join(c))
	with open(args.out_h, 'w') as f:
		f.write('\n'.join(h))


if __name__ == '__main__':
	try:
		main()
	except GenError as e:
		sys.stderr.write('gen-wrappers.py: %s\n' % e)
		sys.exit(1)
