/*
 * The GL compositor's shaders (gl.h), GLSL ES 1.00. Every fragment shader
 * outputs premultiplied colour times the plane alpha, so one blend function
 * (ONE, ONE_MINUS_SRC_ALPHA) serves every blend mode.
 */
#include <errno.h>
#include <stddef.h>

#include "gl.h"

static const char vertex_source[] =
	"attribute vec2 a_pos;\n"
	"attribute vec2 a_tex;\n"
	"varying vec2 v_tex;\n"
	"void main() {\n"
	"	gl_Position = vec4(a_pos, 0.0, 1.0);\n"
	"	v_tex = a_tex;\n"
	"}\n";

#define FRAGMENT_HEADER \
	"#ifdef GL_FRAGMENT_PRECISION_HIGH\n" \
	"precision highp float;\n" \
	"#else\n" \
	"precision mediump float;\n" \
	"#endif\n" \
	"varying vec2 v_tex;\n" \
	"uniform float u_alpha;\n"

/* RGBA, BGRA (swap_rb) and their X variants (opaque) from one texture. */
static const char rgba_source[] =
	FRAGMENT_HEADER
	"uniform sampler2D u_tex0;\n"
	"uniform float u_swap_rb;\n"
	"uniform float u_opaque;\n"
	"void main() {\n"
	"	vec4 c = texture2D(u_tex0, v_tex);\n"
	"	c = mix(c, c.bgra, u_swap_rb);\n"
	"	c.a = mix(c.a, 1.0, u_opaque);\n"
	"	gl_FragColor = c * u_alpha;\n"
	"}\n";

/*
 * NV12: luma in .r of tex0 (NEAREST), Cb/Cr in .r/.a of tex1 (LINEAR). As
 * the CPU reference does, the image is converted to RGB at luma resolution
 * (chroma read at each luma centre: bilinear, centre sited) and that RGB is
 * filtered bilinearly, by hand: four luma texels, each with its chroma.
 * Filtering luma and chroma separately would blur chroma edges differently.
 */
static const char nv12_source[] =
	FRAGMENT_HEADER
	"uniform sampler2D u_tex0;\n"
	"uniform sampler2D u_tex1;\n"
	"uniform vec2 u_size;\n"
	"uniform vec2 u_chroma_scale;\n"
	"uniform mat3 u_yuv;\n"
	"uniform vec3 u_yuv_offset;\n"
	"vec3 rgb_at(vec2 centre) {\n"
	"	vec2 t = centre / u_size;\n"
	"	vec3 yuv = vec3(texture2D(u_tex0, t).r, texture2D(u_tex1, t * u_chroma_scale).ra);\n"
	"	return clamp(u_yuv * (yuv - u_yuv_offset), 0.0, 1.0);\n"
	"}\n"
	"void main() {\n"
	"	vec2 p = v_tex * u_size - 0.5;\n"
	"	vec2 f = p - floor(p);\n"
	"	vec2 c0 = clamp(floor(p) + 0.5, vec2(0.5), u_size - 0.5);\n"
	"	vec2 c1 = clamp(floor(p) + 1.5, vec2(0.5), u_size - 0.5);\n"
	"	vec3 top = mix(rgb_at(c0), rgb_at(vec2(c1.x, c0.y)), f.x);\n"
	"	vec3 bottom = mix(rgb_at(vec2(c0.x, c1.y)), rgb_at(c1), f.x);\n"
	"	gl_FragColor = vec4(mix(top, bottom, f.y), 1.0) * u_alpha;\n"
	"}\n";

static const char solid_source[] =
	FRAGMENT_HEADER
	"uniform vec4 u_color;\n"
	"void main() {\n"
	"	gl_FragColor = u_color * u_alpha;\n"
	"}\n";

static const char *const fragment_sources[COMP_GL_PROGRAM_COUNT] = {
	[COMP_GL_PROGRAM_RGBA] = rgba_source,
	[COMP_GL_PROGRAM_NV12] = nv12_source,
	[COMP_GL_PROGRAM_SOLID] = solid_source,
};

static GLuint compile(GLenum type, const char *source)
{
	GLuint shader = glCreateShader(type);
	GLint ok = GL_FALSE;

	if (!shader) {
		return 0;
	}
	glShaderSource(shader, 1, &source, NULL);
	glCompileShader(shader);
	glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
	if (!ok) {
		glDeleteShader(shader);
		return 0;
	}
	return shader;
}

static GLuint link(GLuint vertex, const char *fragment_source)
{
	GLuint fragment = compile(GL_FRAGMENT_SHADER, fragment_source);
	GLuint program;
	GLint ok = GL_FALSE;

	if (!fragment) {
		return 0;
	}
	program = glCreateProgram();
	if (program) {
		glAttachShader(program, vertex);
		glAttachShader(program, fragment);
		glLinkProgram(program);
		glGetProgramiv(program, GL_LINK_STATUS, &ok);
		glDetachShader(program, vertex);
		glDetachShader(program, fragment);
		if (!ok) {
			glDeleteProgram(program);
			program = 0;
		}
	}
	glDeleteShader(fragment);
	return program;
}

/* Column-major: the columns multiply Y, Cb and Cr. */
static void set_yuv(const struct comp_gl_program *p, const struct comp_yuv_matrix *m)
{
	const GLfloat matrix[9] = {
		(GLfloat)m->y, (GLfloat)m->y, (GLfloat)m->y,
		0.0f, (GLfloat)m->gu, (GLfloat)m->bu,
		(GLfloat)m->rv, (GLfloat)m->gv, 0.0f,
	};

	glUseProgram(p->id);
	glUniformMatrix3fv(glGetUniformLocation(p->id, "u_yuv"), 1, GL_FALSE, matrix);
	glUniform3f(glGetUniformLocation(p->id, "u_yuv_offset"), (GLfloat)(m->y_offset / 255.0),
		(GLfloat)(128.0 / 255.0), (GLfloat)(128.0 / 255.0));
}

static void locate(struct comp_gl_program *p)
{
	p->pos = glGetAttribLocation(p->id, "a_pos");
	p->tex = glGetAttribLocation(p->id, "a_tex");
	p->alpha = glGetUniformLocation(p->id, "u_alpha");
	p->swap_rb = glGetUniformLocation(p->id, "u_swap_rb");
	p->opaque = glGetUniformLocation(p->id, "u_opaque");
	p->color = glGetUniformLocation(p->id, "u_color");
	p->chroma_scale = glGetUniformLocation(p->id, "u_chroma_scale");
	p->size = glGetUniformLocation(p->id, "u_size");
	glUseProgram(p->id);
	glUniform1i(glGetUniformLocation(p->id, "u_tex0"), 0);
	glUniform1i(glGetUniformLocation(p->id, "u_tex1"), 1);
}

int comp_gl_programs_init(struct comp_gl_program programs[COMP_GL_PROGRAM_COUNT],
	const struct comp_yuv_matrix *m)
{
	GLuint vertex = compile(GL_VERTEX_SHADER, vertex_source);
	int ret = 0;

	for (int i = 0; i < COMP_GL_PROGRAM_COUNT; i++) {
		programs[i] = (struct comp_gl_program){ .id = 0 };
	}
	if (!vertex) {
		return -EIO;
	}
	for (int i = 0; i < COMP_GL_PROGRAM_COUNT && ret == 0; i++) {
		programs[i].id = link(vertex, fragment_sources[i]);
		if (!programs[i].id) {
			ret = -EIO;
			break;
		}
		locate(&programs[i]);
	}
	glDeleteShader(vertex);
	if (ret == 0) {
		set_yuv(&programs[COMP_GL_PROGRAM_NV12], m);
	} else {
		comp_gl_programs_finish(programs);
	}
	glUseProgram(0);
	return ret;
}

void comp_gl_programs_finish(struct comp_gl_program programs[COMP_GL_PROGRAM_COUNT])
{
	for (int i = 0; i < COMP_GL_PROGRAM_COUNT; i++) {
		if (programs[i].id) {
			glDeleteProgram(programs[i].id);
			programs[i].id = 0;
		}
	}
}
