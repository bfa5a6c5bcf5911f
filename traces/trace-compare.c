/*
 * trace-compare A.zst B.zst: exit 0 when the two traces hold the same
 * content — the FileHeader without its creation time, then every record,
 * packed, in order — else 1 naming the first difference (2: unreadable).
 * Two Blob records that differ only in their predictor and so in their
 * stored bytes are the same content when both decode to the same payload:
 * the writer picks a predictor by how small libzstd compresses a sample,
 * and libzstd does not compress to the same size on every architecture
 * (docs/format.md section 4).
 * The regeneration test of traces/ (traces/meson.build) runs it.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hwct/reader.h>

struct packed {
	uint8_t *data;
	size_t size;
};

static struct packed pack(const ProtobufCMessage *msg)
{
	struct packed p = { .size = protobuf_c_message_get_packed_size(msg) };

	p.data = malloc(p.size ? p.size : 1);
	if (!p.data) {
		fprintf(stderr, "trace-compare: out of memory\n");
		exit(2);
	}
	protobuf_c_message_pack(msg, p.data);
	return p;
}

static const char *kind_name(const Hwct__Record *rec)
{
	const ProtobufCFieldDescriptor *f;

	if (!rec) {
		return "(end of trace)";
	}
	f = protobuf_c_message_descriptor_get_field(&hwct__record__descriptor, (unsigned)rec->kind_case);
	return f ? f->name : "(unknown)";
}

static size_t first_difference(const struct packed *a, const struct packed *b)
{
	size_t n = a->size < b->size ? a->size : b->size;

	for (size_t i = 0; i < n; i++) {
		if (a->data[i] != b->data[i]) {
			return i;
		}
	}
	return n;
}

static int compare_headers(struct hwct_reader *ra, struct hwct_reader *rb)
{
	Hwct__FileHeader ha = *hwct_reader_info(ra)->header, hb = *hwct_reader_info(rb)->header;
	struct packed pa, pb;
	int same;

	ha.has_created_unix_ns = hb.has_created_unix_ns = false;
	ha.created_unix_ns = hb.created_unix_ns = 0;
	pa = pack(&ha.base);
	pb = pack(&hb.base);
	same = pa.size == pb.size && memcmp(pa.data, pb.data, pa.size) == 0;
	if (!same) {
		printf("file headers differ (creation time aside): writer '%s' vs '%s', byte %zu\n",
			ha.writer ? ha.writer : "", hb.writer ? hb.writer : "", first_difference(&pa, &pb));
	}
	free(pa.data);
	free(pb.data);
	return same ? 0 : 1;
}

static int read_error(struct hwct_reader *r)
{
	fprintf(stderr, "trace-compare: %s\n", hwct_reader_error(r)->message);
	return 2;
}

/* Blobs a and b equal but for their predictor and stored bytes, and decoding to the same payload. */
static bool same_decoded_blob(struct hwct_reader *ra, struct hwct_reader *rb, const Hwct__Blob *a, const Hwct__Blob *b)
{
	Hwct__Blob ca = *a, cb = *b;
	struct hwct_blob_data da = { 0 }, db = { 0 };
	struct hwct_hash ha, hb;
	struct packed pa, pb;
	bool same;

	ca.predictor = cb.predictor = 0;
	ca.data = cb.data = (ProtobufCBinaryData){ 0 };
	pa = pack(&ca.base);
	pb = pack(&cb.base);
	same = pa.size == pb.size && memcmp(pa.data, pb.data, pa.size) == 0;
	free(pa.data);
	free(pb.data);
	if (!same || !hwct_hash_from_bytes(&ha, a->hash.data, a->hash.len) ||
			!hwct_hash_from_bytes(&hb, b->hash.data, b->hash.len)) {
		return false;
	}
	/* each decoded and checked against its hash by its own reader */
	same = hwct_reader_blob(ra, &ha, &da) == 0 && hwct_reader_blob(rb, &hb, &db) == 0 && da.size == db.size &&
		memcmp(da.data, db.data, da.size) == 0;
	free(da.data);
	free(db.data);
	return same;
}

static int compare_records(struct hwct_reader *ra, struct hwct_reader *rb, const char *a, const char *b)
{
	uint64_t encoded_apart = 0;

	for (uint64_t i = 0;; i++) {
		const Hwct__Record *reca = NULL, *recb = NULL;
		int na = hwct_reader_next(ra, &reca), nb = hwct_reader_next(rb, &recb);
		const char *ka, *kb;
		struct packed pa, pb;
		int same;

		if (na < 0) {
			return read_error(ra);
		}
		if (nb < 0) {
			return read_error(rb);
		}
		if (na == 0 && nb == 0) {
			printf("same content: %llu records (%llu blobs stored with another predictor)\n",
				(unsigned long long)i, (unsigned long long)encoded_apart);
			return 0;
		}
		if (na == 0 || nb == 0) {
			printf("record %llu: %s has %s, %s has %s\n", (unsigned long long)i, a,
				na ? kind_name(reca) : "no more records", b, nb ? kind_name(recb) : "no more records");
			return 1;
		}
		/* names first: decoding a blob may reuse what reca and recb point into */
		ka = kind_name(reca);
		kb = kind_name(recb);
		pa = pack(&reca->base);
		pb = pack(&recb->base);
		same = pa.size == pb.size && memcmp(pa.data, pb.data, pa.size) == 0;
		if (!same && reca->kind_case == HWCT__RECORD__KIND_BLOB && recb->kind_case == HWCT__RECORD__KIND_BLOB &&
				same_decoded_blob(ra, rb, reca->blob, recb->blob)) {
			same = true;
			encoded_apart++;
		}
		if (!same) {
			printf("record %llu differs: %s %s (%zu bytes) vs %s %s (%zu bytes), first at byte %zu\n",
				(unsigned long long)i, a, ka, pa.size, b, kb, pb.size,
				first_difference(&pa, &pb));
		}
		free(pa.data);
		free(pb.data);
		if (!same) {
			return 1;
		}
	}
}

int main(int argc, char **argv)
{
	struct hwct_reader *ra, *rb;
	struct hwct_error err;
	int ret;

	if (argc != 3) {
		fprintf(stderr, "usage: trace-compare A.zst B.zst\n");
		return 2;
	}
	ra = hwct_reader_open(argv[1], &err);
	if (!ra) {
		fprintf(stderr, "trace-compare: %s\n", err.message);
		return 2;
	}
	rb = hwct_reader_open(argv[2], &err);
	if (!rb) {
		fprintf(stderr, "trace-compare: %s\n", err.message);
		hwct_reader_destroy(ra);
		return 2;
	}
	ret = compare_headers(ra, rb);
	if (ret == 0) {
		ret = compare_records(ra, rb, argv[1], argv[2]);
	}
	hwct_reader_destroy(ra);
	hwct_reader_destroy(rb);
	return ret;
}
