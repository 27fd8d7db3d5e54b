/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The pruning JSON reader (fleet_json.h): a recursive descent over strict
 * JSON that skips what is not kept and builds what is with json-c's own
 * constructors, numbers parsed as json_tokener parses them (integers by
 * strtoll, others by strtod, their text kept), so the objects read and
 * print the same.
 */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "tools/cluster/fleet_json.h"

/* json_tokener_new()'s: 32 open containers parse, 33 do not. */
#define DEPTH_MAX 32
#define NUMBER_MAX 64

struct scan {
	const char *p, *end;
	int depth;
	char *str; /* unescaped string, when it held an escape */
	size_t str_cap;
};

static void ws(struct scan *s)
{
	while (s->p < s->end && (*s->p == ' ' || *s->p == '\n' ||
				 *s->p == '\r' || *s->p == '\t'))
		s->p++;
}

static bool eat(struct scan *s, char c)
{
	ws(s);
	if (s->p < s->end && *s->p == c) {
		s->p++;
		return true;
	}
	return false;
}

static char unescape(char c)
{
	switch (c) {
	case '"':
	case '\\':
	case '/':
		return c;
	case 'b':
		return '\b';
	case 'f':
		return '\f';
	case 'n':
		return '\n';
	case 'r':
		return '\r';
	case 't':
		return '\t';
	default:
		return 0; /* \u and anything else: json-c's to read */
	}
}

/* The string at s->p (its opening quote) as *@str, *@len bytes: in the
 * text itself when it holds no escape, else in s->str. */
static int string(struct scan *s, const char **str, size_t *len)
{
	const char *b = ++s->p, *q = b;
	size_t n = 0;

	while (q < s->end && *q != '"' && *q != '\\' &&
	       (unsigned char)*q >= 0x20)
		q++;
	if (q < s->end && *q == '"') {
		*str = b;
		*len = (size_t)(q - b);
		s->p = q + 1;
		return 0;
	}
	if (s->str_cap < (size_t)(s->end - b)) {
		char *grown = realloc(s->str, (size_t)(s->end - b));

		if (!grown)
			return -ENOMEM;
		s->str = grown;
		s->str_cap = (size_t)(s->end - b);
	}
	for (q = b; q < s->end && *q != '"'; q++) {
		char c = *q;

		if ((unsigned char)c < 0x20)
			return -EINVAL;
		if (c == '\\' && (++q == s->end || !(c = unescape(*q))))
			return -EINVAL;
		s->str[n++] = c;
	}
	if (q == s->end)
		return -EINVAL;
	*str = s->str;
	*len = n;
	s->p = q + 1;
	return 0;
}

static const char *digits(const char *q, const char *end)
{
	const char *b = q;

	while (q < end && *q >= '0' && *q <= '9')
		q++;
	return q > b ? q : NULL;
}

/* A number; one that ends the text is refused (json-c waits for more). */
static int number(struct scan *s, struct json_object **out)
{
	const char *b = s->p, *q = b + (*b == '-');
	bool dbl = false;
	char tmp[NUMBER_MAX];
	size_t n;

	if (q < s->end && *q == '0')
		q++;
	else if (!(q = digits(q, s->end)))
		return -EINVAL;
	if (q < s->end && *q == '.') {
		dbl = true;
		if (!(q = digits(q + 1, s->end)))
			return -EINVAL;
	}
	if (q < s->end && (*q == 'e' || *q == 'E')) {
		dbl = true;
		q += q + 1 < s->end && (q[1] == '+' || q[1] == '-') ? 2 : 1;
		if (!(q = digits(q, s->end)))
			return -EINVAL;
	}
	n = (size_t)(q - b);
	if (q == s->end || n >= NUMBER_MAX || (!dbl && n - (*b == '-') > 18))
		return -EINVAL;
	s->p = q;
	if (!out)
		return 0;
	memcpy(tmp, b, n);
	tmp[n] = '\0';
	if (!dbl) {
		*out = json_object_new_int64(strtoll(tmp, NULL, 10));
	} else {
		double d = strtod(tmp, NULL);

		if (!isfinite(d))
			return -EINVAL;
		*out = json_object_new_double_s(d, tmp);
	}
	return *out ? 0 : -ENOMEM;
}

/* true, false or null, built when @out. */
static int literal(struct scan *s, struct json_object **out)
{
	const char *word = *s->p == 't'	  ? "true"
			   : *s->p == 'f' ? "false"
					  : "null";
	size_t n = strlen(word);

	if ((size_t)(s->end - s->p) < n || memcmp(s->p, word, n))
		return -EINVAL;
	s->p += n;
	if (!out || *word == 'n')
		return 0;
	*out = json_object_new_boolean(*word == 't');
	return *out ? 0 : -ENOMEM;
}

static int value(struct scan *s, const struct gd_fleet_keep *keep,
		 struct json_object **out);

static const struct gd_fleet_keep *kept(const struct gd_fleet_keep *keep,
					const char *key, size_t len)
{
	for (; keep && keep->key; keep++)
		if (len && keep->key[0] == key[0] &&
		    !strncmp(keep->key, key, len) && !keep->key[len])
			return keep;
	return NULL;
}

/* One member of an object being read: its value skipped, or built and
 * added to @obj (under its own key when the whole object is kept). */
static int member(struct scan *s, const struct gd_fleet_keep *keep,
		  struct json_object *obj)
{
	const struct gd_fleet_keep *m;
	struct json_object *v = NULL;
	const char *key;
	size_t len;
	char *whole;
	int ret;

	ws(s);
	if (s->p == s->end || *s->p != '"')
		return -EINVAL;
	ret = string(s, &key, &len);
	if (ret)
		return ret;
	if (!eat(s, ':'))
		return -EINVAL;
	m = kept(keep, key, len);
	if (!obj || (keep && !m))
		return value(s, NULL, NULL);
	whole = keep ? NULL : strndup(key, len);
	if (!keep && !whole)
		return -ENOMEM;
	ret = value(s, m ? m->sub : NULL, &v);
	if (!ret && json_object_object_add(obj, m ? m->key : whole, v))
		ret = -ENOMEM;
	if (ret)
		json_object_put(v);
	free(whole);
	return ret;
}

static int container(struct scan *s, const struct gd_fleet_keep *keep,
		     struct json_object **out)
{
	bool obj = *s->p == '{';
	char close = obj ? '}' : ']';
	struct json_object *c = NULL, *v;
	int ret = 0;

	if (++s->depth > DEPTH_MAX)
		return -EINVAL;
	s->p++;
	if (out &&
	    !(c = obj ? json_object_new_object() : json_object_new_array()))
		return -ENOMEM;
	if (!eat(s, close)) {
		do {
			v = NULL;
			if (obj) {
				ret = member(s, keep, c);
				continue;
			}
			ret = value(s, keep, c ? &v : NULL);
			if (!ret && c && json_object_array_add(c, v)) {
				json_object_put(v);
				ret = -ENOMEM;
			}
		} while (!ret && eat(s, ','));
		if (!ret && !eat(s, close))
			ret = -EINVAL;
	}
	s->depth--;
	if (ret)
		json_object_put(c);
	else if (out)
		*out = c;
	return ret;
}

/* Any value at s->p: built into *@out (pruned by @keep) when @out. */
static int value(struct scan *s, const struct gd_fleet_keep *keep,
		 struct json_object **out)
{
	const char *str;
	size_t len;
	int ret;

	ws(s);
	if (s->p == s->end)
		return -EINVAL;
	switch (*s->p) {
	case '{':
	case '[':
		return container(s, keep, out);
	case '"':
		ret = string(s, &str, &len);
		if (ret || !out)
			return ret;
		*out = json_object_new_string_len(str, (int)len);
		return *out ? 0 : -ENOMEM;
	case 't':
	case 'f':
	case 'n':
		return literal(s, out);
	default:
		return number(s, out);
	}
}

int gd_fleet_json_read(const char *text, size_t len,
		       const struct gd_fleet_keep *keep,
		       struct json_object **out)
{
	struct scan s = { .p = text, .end = text + len };
	int ret = -EINVAL;

	*out = NULL;
	ws(&s);
	if (len <= INT32_MAX && s.p < s.end && *s.p == '{')
		ret = value(&s, keep, out);
	free(s.str);
	return ret;
}

/* The members of the object at s->p (after its '{'), skipped; *@at the
 * value of the last one named @key, left as it was when none is. */
static int members_find(struct scan *s, const char *key, const char **at)
{
	const char *name;
	size_t n;
	int ret;

	do {
		ws(s);
		ret = s->p < s->end && *s->p == '"' ? string(s, &name, &n)
						    : -EINVAL;
		if (!ret && !eat(s, ':'))
			ret = -EINVAL;
		if (!ret && n == strlen(key) && !memcmp(name, key, n)) {
			ws(s);
			*at = s->p;
		}
		if (!ret)
			ret = value(s, NULL, NULL);
	} while (!ret && eat(s, ','));
	return !ret && !eat(s, '}') ? -EINVAL : ret;
}

int gd_fleet_json_each(const char *text, size_t len, const char *key,
		       const struct gd_fleet_keep *keep,
		       int (*fn)(void *ctx, struct json_object *elem),
		       void *ctx)
{
	struct scan s = { .p = text, .end = text + len };
	const char *at = NULL;
	int ret = -EINVAL;

	if (!eat(&s, '{'))
		return ret;
	s.depth = 1;
	ret = 0;
	if (!eat(&s, '}')) {
		ret = members_find(&s, key, &at);
		s.p = at;
	}
	if (!ret && at && eat(&s, '[') && !eat(&s, ']')) {
		s.depth = 2;
		do {
			struct json_object *v = NULL;

			ret = value(&s, keep, &v);
			if (!ret)
				ret = fn(ctx, v);
			json_object_put(v);
		} while (!ret && eat(&s, ','));
		if (!ret && !eat(&s, ']'))
			ret = -EINVAL;
	}
	free(s.str);
	return ret;
}
