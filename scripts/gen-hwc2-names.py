#!/usr/bin/env python3
"""Generate the HWC2 enum name tables (hwc2_names.c / hwc2_names.h).

Parses the `typedef enum { ... } name;` blocks of the ABI headers
(include/system/graphics.h, include/hardware/hwcomposer_defs.h,
include/hardware/hwcomposer2.h), evaluates every enumerator, and writes for
each table in TABLES a value->name and a name->value lookup function.

Usage: gen-hwc2-names.py --out-c FILE.c --out-h FILE.h HEADER...
Headers are read in the order given; a value may refer to enumerators of an
earlier header. Any parse surprise (missing enum, unknown name in a value,
name clash, gap in the function descriptors) is an error, so a header change
that breaks the tables fails the build instead of silently dropping names.
"""

import argparse
import ast
import os
import re
import sys

INT32_MAX = 2**31 - 1
SUBSET = 'subset'

# (api name, [(typedef name, prefix stripped from the enumerators[, SUBSET])],
# regex of stripped names to leave out or None, what the table is). Every
# enumerator must carry the prefix, except in SUBSET sources, which take only
# the enumerators that do.
TABLES = [
	('function', [('hwc2_function_descriptor_t', 'HWC2_FUNCTION_')], None,
		'getFunction descriptor'),
	('composition', [('hwc2_composition_t', 'HWC2_COMPOSITION_')], None,
		'layer composition type'),
	('blend_mode', [('hwc2_blend_mode_t', 'HWC2_BLEND_MODE_')], None,
		'layer blend mode'),
	('callback_descriptor', [('hwc2_callback_descriptor_t', 'HWC2_CALLBACK_')], None,
		'registerCallback descriptor'),
	('capability', [('hwc2_capability_t', 'HWC2_CAPABILITY_')], None,
		'device capability'),
	('error', [('hwc2_error_t', 'HWC2_ERROR_')], None,
		'HWC2 return code'),
	('attribute', [('hwc2_attribute_t', 'HWC2_ATTRIBUTE_')], None,
		'display config attribute'),
	('display_request', [('hwc2_display_request_t', 'HWC2_DISPLAY_REQUEST_')], None,
		'display request bit (single bits only)'),
	('layer_request', [('hwc2_layer_request_t', 'HWC2_LAYER_REQUEST_')], None,
		'layer request bit (single bits only)'),
	('display_type', [('hwc2_display_type_t', 'HWC2_DISPLAY_TYPE_')], None,
		'display type'),
	('connection', [('hwc2_connection_t', 'HWC2_CONNECTION_')], None,
		'hotplug connection state'),
	('power_mode', [('hwc2_power_mode_t', 'HWC2_POWER_MODE_')], None,
		'display power mode'),
	('vsync', [('hwc2_vsync_t', 'HWC2_VSYNC_')], None,
		'setVsyncEnabled value'),
	('content_type', [('hwc2_content_type_t', 'HWC2_CONTENT_TYPE_')], None,
		'content type'),
	('display_capability', [('hwc2_display_capability_t', 'HWC2_DISPLAY_CAPABILITY_')], None,
		'display capability'),
	('per_frame_metadata_key', [('hwc2_per_frame_metadata_key_t', 'HWC2_')], None,
		'per-frame metadata key'),
	('display_connection_type', [('hwc2_display_connection_type_t',
		'HWC2_DISPLAY_CONNECTION_TYPE_')], None,
		'display connection type'),
	('displayed_content_sampling', [('hwc2_displayed_content_sampling_t',
		'HWC2_DISPLAYED_CONTENT_SAMPLING_')], None,
		'content sampling enable value'),
	('format_color_component', [('hwc2_format_color_component_t', 'HWC2_FORMAT_')], None,
		'content sampling component bit (single bits only)'),
	('transform', [('android_transform_t', 'HAL_TRANSFORM_'),
		('hwc_transform_t', 'HWC_TRANSFORM_')], None,
		'layer transform (0, the identity, has no name)'),
	('pixel_format', [('android_pixel_format_t', 'HAL_PIXEL_FORMAT_'),
		('android_pixel_format_sw_t', 'HAL_PIXEL_FORMAT_'),
		('android_pixel_format_v1_1_t', 'HAL_PIXEL_FORMAT_'),
		('android_pixel_format_v1_2_t', 'HAL_PIXEL_FORMAT_')], None,
		'HAL pixel format'),
	('dataspace', [('android_dataspace_t', 'HAL_DATASPACE_'),
		('android_dataspace_v1_1_t', 'HAL_DATASPACE_'),
		('android_dataspace_v1_2_t', 'HAL_DATASPACE_')],
		r'^(STANDARD|TRANSFER|RANGE)_',
		'named dataspace (whole value; see the _standard/_transfer/_range tables for fields)'),
	('dataspace_standard', [('android_dataspace_t', 'HAL_DATASPACE_STANDARD_', SUBSET)],
		r'^(SHIFT|MASK)$',
		'dataspace standard field (value & HAL_DATASPACE_STANDARD_MASK)'),
	('dataspace_transfer', [('android_dataspace_t', 'HAL_DATASPACE_TRANSFER_', SUBSET)],
		r'^(SHIFT|MASK)$',
		'dataspace transfer field (value & HAL_DATASPACE_TRANSFER_MASK)'),
	('dataspace_range', [('android_dataspace_t', 'HAL_DATASPACE_RANGE_', SUBSET)],
		r'^(SHIFT|MASK)$',
		'dataspace range field (value & HAL_DATASPACE_RANGE_MASK)'),
	('color_mode', [('android_color_mode_t', 'HAL_COLOR_MODE_'),
		('android_color_mode_v1_1_t', 'HAL_COLOR_MODE_'),
		('android_color_mode_v1_2_t', 'HAL_COLOR_MODE_')], None,
		'display color mode'),
	('render_intent', [('android_render_intent_v1_1_t', 'HAL_RENDER_INTENT_')], None,
		'render intent'),
	('color_transform', [('android_color_transform_t', 'HAL_COLOR_TRANSFORM_')], None,
		'color transform hint'),
	('hdr', [('android_hdr_t', 'HAL_HDR_'), ('android_hdr_v1_2_t', 'HAL_HDR_')], None,
		'HDR type'),
]

EXPECTED_FUNCTIONS = 70	# descriptors 1..70 (composer 2.1-2.4)


class GenError(Exception):
	pass


COMMENT_RE = re.compile(r'("(?:\\.|[^"\\\n])*")|/\*.*?\*/|//[^\n]*', re.S)
ENUM_RE = re.compile(r'typedef\s+enum\s*(?:\w+\s*)?\{(.*?)\}\s*(\w+)\s*;', re.S)
ENUMERATOR_RE = re.compile(r'^([A-Za-z_]\w*)\s*(?:=\s*(.+))?$', re.S)
INT_SUFFIX_RE = re.compile(r'\b(0[xX][0-9a-fA-F]+|\d+)[uUlL]+\b')


def strip_comments(text):
	# Keep string literals, blank out comments (newlines kept for line numbers).
	def repl(m):
		if m.group(1):
			return m.group(1)
		return ' ' + '\n' * m.group(0).count('\n')
	return COMMENT_RE.sub(repl, text)


def evaluate(expr, symbols, where):
	text = INT_SUFFIX_RE.sub(r'\1', expr.strip())
	try:
		tree = ast.parse(text, mode='eval')
	except SyntaxError:
		raise GenError('%s: cannot parse value "%s"' % (where, expr.strip()))

	def ev(node):
		if isinstance(node, ast.Expression):
			return ev(node.body)
		if isinstance(node, ast.Constant) and type(node.value) is int:
			return node.value
		if isinstance(node, ast.Name):
			if node.id not in symbols:
				raise GenError('%s: unknown name %s in value' % (where, node.id))
			return symbols[node.id]
		if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd, ast.Invert)):
			v = ev(node.operand)
			return {ast.USub: -v, ast.UAdd: v, ast.Invert: ~v}[type(node.op)]
		if isinstance(node, ast.BinOp):
			a, b = ev(node.left), ev(node.right)
			ops = {
				ast.LShift: lambda: a << b, ast.RShift: lambda: a >> b,
				ast.BitOr: lambda: a | b, ast.BitAnd: lambda: a & b,
				ast.BitXor: lambda: a ^ b, ast.Add: lambda: a + b,
				ast.Sub: lambda: a - b, ast.Mult: lambda: a * b,
			}
			if type(node.op) in ops:
				return ops[type(node.op)]()
		raise GenError('%s: unsupported construct in value "%s"' % (where, expr.strip()))

	return ev(tree)


def parse_headers(paths):
	"""Returns ({typedef: [(name, value)]}, {typedef: path})."""
	enums = {}
	origin = {}
	symbols = {}
	for path in paths:
		with open(path, encoding='utf-8') as f:
			text = strip_comments(f.read())
		for m in ENUM_RE.finditer(text):
			body, tname = m.group(1), m.group(2)
			line = text.count('\n', 0, m.start()) + 1
			where = '%s:%d (%s)' % (path, line, tname)
			if tname in enums:
				raise GenError('%s: enum defined twice' % where)
			body = '\n'.join(l for l in body.split('\n') if not l.strip().startswith('#'))
			items = []
			nxt = 0
			for part in body.split(','):
				part = ' '.join(part.split())
				if not part:
					continue
				em = ENUMERATOR_RE.match(part)
				if not em:
					raise GenError('%s: cannot parse enumerator "%s"' % (where, part))
				name, expr = em.group(1), em.group(2)
				value = evaluate(expr, symbols, where) if expr is not None else nxt
				if name in symbols and symbols[name] != value:
					raise GenError('%s: %s redefined' % (where, name))
				symbols[name] = value
				items.append((name, value))
				nxt = value + 1
			if not items:
				raise GenError('%s: empty enum' % where)
			enums[tname] = items
			origin[tname] = path
	return enums, origin


def build_tables(enums):
	tables = []
	for api, sources, exclude, doc in TABLES:
		skip = re.compile(exclude) if exclude else None
		entries = []	# (name, value) in source order, names unique
		seen = {}
		for source in sources:
			tname, prefix = source[0], source[1]
			subset = SUBSET in source[2:]
			if tname not in enums:
				raise GenError('table %s: enum %s not found in the headers' % (api, tname))
			for cname, value in enums[tname]:
				if not cname.startswith(prefix):
					if subset:
						continue
					raise GenError('table %s: %s lacks prefix %s' % (api, cname, prefix))
				name = cname[len(prefix):]
				if skip and skip.search(name):
					continue
				if name in seen:
					if seen[name] != value:
						raise GenError('table %s: %s has two values' % (api, name))
					continue
				if value < 0 or value > INT32_MAX:
					raise GenError('table %s: %s = %d outside 0..INT32_MAX' % (api, name, value))
				seen[name] = value
				entries.append((name, value))
		if not entries:
			raise GenError('table %s: no entries' % api)
		tables.append((api, sources, doc, entries))
	return tables


def check_functions(tables):
	entries = dict((t[0], t[3]) for t in tables)['function']
	values = sorted(v for _, v in entries)
	if values != list(range(len(values))):
		missing = sorted(set(range(values[-1] + 1)) - set(values))
		raise GenError('function descriptors are not 0..N without gaps; missing %s' % missing)
	if ('INVALID', 0) not in entries:
		raise GenError('HWC2_FUNCTION_INVALID = 0 not found')
	if len(values) - 1 != EXPECTED_FUNCTIONS:
		raise GenError('found %d function descriptors, expected %d'
			% (len(values) - 1, EXPECTED_FUNCTIONS))
	return max(values), len(values) - 1


def camel(name):
	parts = name.lower().split('_')
	return parts[0] + ''.join(p[:1].upper() + p[1:] for p in parts[1:])


def c_string(s):
	if not re.match(r'^[A-Za-z0-9_]*$', s):
		raise GenError('unexpected characters in name %r' % s)
	return '"%s"' % s


def emit_header(tables, fmax, fcount, sources):
	out = []
	w = out.append
	w('/*')
	w(' * Name tables of the HWC2 ABI enums. Generated by scripts/gen-hwc2-names.py')
	w(' * from %s. Do not edit.' % ',\n *   '.join(sources))
	w(' *')
	w(' * Names are the enumerator without its prefix, in upper case as in the')
	w(' * headers ("SET_LAYER_BUFFER" for HWC2_FUNCTION_SET_LAYER_BUFFER). All')
	w(' * returned strings are static: never free them. Lookups are thread-safe.')
	w(' */')
	w('#ifndef HWCT_HWC2_NAMES_H')
	w('#define HWCT_HWC2_NAMES_H')
	w('')
	w('#include <stdint.h>')
	w('')
	w('#ifdef __cplusplus')
	w('extern "C" {')
	w('#endif')
	w('')
	w('/* Highest hwc2_function_descriptor_t value. */')
	w('#define HWCT_HWC2_FUNCTION_MAX %d' % fmax)
	w('/* Number of function descriptors other than INVALID (1..MAX, no gaps). */')
	w('#define HWCT_HWC2_FUNCTION_COUNT %d' % fcount)
	w('')
	w('/* Number of names in each table (aliases included, excluded names not). */')
	for api, _, _, entries in tables:
		w('#define HWCT_HWC2_%s_NAMES %d' % (api.upper(), len(entries)))
	for api, srcs, doc, _ in tables:
		enum_list = ', '.join('%s (%s*)' % (s[0], s[1]) for s in srcs)
		w('')
		w('/* %s: %s */' % (api, enum_list))
		w('/*')
		w(' * Returns the name of a %s as a static string, NULL when' % doc)
		w(' * value has no name. Where values have aliases the first one in the')
		w(' * header is returned.')
		w(' */')
		w('const char *hwct_hwc2_%s_name(int32_t value);' % api)
		w('/* Returns the value of a name (exact, without prefix), -1 when unknown or NULL. */')
		w('int32_t hwct_hwc2_%s_from_name(const char *name);' % api)
		if api == 'function':
			w('/*')
			w(' * Returns the camelCase HWC2 method name of a descriptor ("setLayerBuffer")')
			w(' * as a static string, NULL for INVALID and unknown values.')
			w(' */')
			w('const char *hwct_hwc2_function_method(int32_t descriptor);')
			w('/* Returns the descriptor of a camelCase method name, -1 when unknown or NULL. */')
			w('int32_t hwct_hwc2_function_from_method(const char *method);')
	w('')
	w('#ifdef __cplusplus')
	w('}')
	w('#endif')
	w('')
	w('#endif')
	return '\n'.join(out) + '\n'


def emit_switch(w, func, arg, pairs):
	w('const char *%s(int32_t %s)' % (func, arg))
	w('{')
	w('\tswitch (%s) {' % arg)
	done = set()
	for name, value in pairs:
		if value in done:
			continue	# alias: the first name wins
		done.add(value)
		w('\tcase %d:' % value)
		w('\t\treturn %s;' % c_string(name))
	w('\tdefault:')
	w('\t\treturn NULL;')
	w('\t}')
	w('}')


def emit_lookup(w, func, arg, array, pairs):
	pairs = sorted(pairs, key=lambda p: p[0].encode())
	w('static const struct name_entry %s[] = {' % array)
	for name, value in pairs:
		w('\t{ %s, %d },' % (c_string(name), value))
	w('};')
	w('')
	w('int32_t %s(const char *%s)' % (func, arg))
	w('{')
	w('\treturn lookup(%s, sizeof(%s) / sizeof(%s[0]), %s);' % (array, array, array, arg))
	w('}')


def emit_source(tables, sources, header_name):
	out = []
	w = out.append
	w('/*')
	w(' * Generated by scripts/gen-hwc2-names.py from %s.' % ',\n *   '.join(sources))
	w(' * Do not edit.')
	w(' */')
	w('#include <stddef.h>')
	w('#include <stdint.h>')
	w('#include <stdlib.h>')
	w('#include <string.h>')
	w('')
	w('#include "%s"' % header_name)
	w('')
	w('struct name_entry {')
	w('\tconst char *name;')
	w('\tint32_t value;')
	w('};')
	w('')
	w('static int compare_entry(const void *key, const void *member)')
	w('{')
	w('\tconst struct name_entry *entry = member;')
	w('')
	w('\treturn strcmp(key, entry->name);')
	w('}')
	w('')
	w('/* Binary search of a table sorted by strcmp() order. */')
	w('static int32_t lookup(const struct name_entry *entries, size_t count, const char *name)')
	w('{')
	w('\tconst struct name_entry *found;')
	w('')
	w('\tif (name == NULL) {')
	w('\t\treturn -1;')
	w('\t}')
	w('\tfound = bsearch(name, entries, count, sizeof(*entries), compare_entry);')
	w('\treturn found != NULL ? found->value : -1;')
	w('}')
	for api, _, _, entries in tables:
		w('')
		emit_switch(w, 'hwct_hwc2_%s_name' % api, 'value', entries)
		w('')
		emit_lookup(w, 'hwct_hwc2_%s_from_name' % api, 'name', '%s_by_name' % api, entries)
		if api == 'function':
			methods = [(camel(n), v) for n, v in entries if n != 'INVALID']
			w('')
			emit_switch(w, 'hwct_hwc2_function_method', 'descriptor', methods)
			w('')
			emit_lookup(w, 'hwct_hwc2_function_from_method', 'method',
				'function_by_method', methods)
	return '\n'.join(out) + '\n'


def write(path, text):
	with open(path, 'w', encoding='utf-8') as f:
		f.write(text)


def main(argv):
	ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
	ap.add_argument('--out-c', required=True, help='generated C source')
	ap.add_argument('--out-h', required=True, help='generated header')
	ap.add_argument('--include-name', default=None,
		help='how the C source includes the header (default: its file name)')
	ap.add_argument('headers', nargs='+', help='ABI headers, in dependency order')
	args = ap.parse_args(argv)

	try:
		enums, _ = parse_headers(args.headers)
		tables = build_tables(enums)
		fmax, fcount = check_functions(tables)
	except (GenError, OSError) as e:
		print('gen-hwc2-names: error: %s' % e, file=sys.stderr)
		return 1

	sources = [os.path.join(os.path.basename(os.path.dirname(p)), os.path.basename(p))
		for p in args.headers]
	include_name = args.include_name or os.path.basename(args.out_h)
	write(args.out_h, emit_header(tables, fmax, fcount, sources))
	write(args.out_c, emit_source(tables, sources, include_name))
	return 0


if __name__ == '__main__':
	sys.exit(main(sys.argv[1:]))
