import { expect } from 'chai';
import { crc32 } from 'node:zlib';
import { decodeRecords, encodeRecord, MAX_RECORD_BYTES } from '../../host/history/ledger-log.ts';

const payloads = [
  '{"a":1}',
  JSON.stringify({ text: 'héllo ✓ 😀', nested: { list: [1, 2, 3] }, nl: 'line\nbreak', nul: 'a\u0000b' }),
  JSON.stringify({ big: 'x'.repeat(5000) }),
  '"last"',
];

function file(...items: string[]): { buf: Buffer; offsets: number[] } {
  const parts = items.map((p) => encodeRecord(p));
  const offsets: number[] = [];
  let at = 0;
  for (const p of parts) {
    offsets.push(at);
    at += p.length;
  }
  return { buf: Buffer.concat(parts), offsets };
}

describe('ledger-log: record framing', () => {
  it('encodes a documented header line, payload and terminator', () => {
    const rec = encodeRecord('{"a":1}');
    const text = rec.toString('latin1');
    const m = /^HPL1 (\d+) ([0-9a-f]{8})\n(.*)\n$/s.exec(text);
    expect(m, text).to.not.equal(null);
    expect(Number(m![1])).to.equal(7);
    expect(m![3]).to.equal('{"a":1}');
    const expected = (crc32(Buffer.from('{"a":1}'), crc32('HPL1 7 ')) >>> 0).toString(16).padStart(8, '0');
    expect(m![2]).to.equal(expected);
  });

  it('round-trips records, including multi-byte UTF-8 and large payloads', () => {
    const { buf, offsets } = file(...payloads);
    const d = decodeRecords(buf);
    expect(d.records).to.deep.equal(payloads);
    expect(d.offsets).to.deep.equal(offsets);
    expect(d.validBytes).to.equal(buf.length);
    expect(d.tornTail).to.equal(false);
    expect(d.corruptAt).to.equal(undefined);
  });

  it('decodes an empty file as no records', () => {
    expect(decodeRecords(Buffer.alloc(0))).to.deep.equal({ records: [], offsets: [], validBytes: 0, tornTail: false });
  });

  it('refuses payloads the framing cannot carry exactly', () => {
    expect(() => encodeRecord('')).to.throw(TypeError);
    expect(() => encodeRecord('{"a":\n1}')).to.throw(TypeError, /newline/);
    expect(() => encodeRecord('"a\u0000"')).to.throw(TypeError, /NUL/);
    expect(() => encodeRecord('"\ud800"')).to.throw(TypeError, /surrogate/);
    expect(() => encodeRecord(`"${'x'.repeat(MAX_RECORD_BYTES)}"`)).to.throw(RangeError);
    // A well-formed surrogate pair is fine.
    expect(decodeRecords(encodeRecord('"😀"')).records).to.deep.equal(['"😀"']);
  });

  it('reports a torn tail at every byte offset of the last record', () => {
    const { buf, offsets } = file(...payloads);
    const lastStart = offsets.at(-1)!;
    for (let cut = lastStart + 1; cut < buf.length; cut++) {
      const d = decodeRecords(buf.subarray(0, cut));
      expect(d.records, `cut ${cut}`).to.deep.equal(payloads.slice(0, -1));
      expect(d.validBytes, `cut ${cut}`).to.equal(lastStart);
      expect(d.tornTail, `cut ${cut}`).to.equal(true);
      expect(d.corruptAt, `cut ${cut}`).to.equal(undefined);
    }
    // Cut exactly at a record boundary: nothing torn.
    expect(decodeRecords(buf.subarray(0, lastStart))).to.include({ validBytes: lastStart, tornTail: false });
  });

  it('treats a zero-filled tail (size persisted before data) as torn', () => {
    const { buf, offsets } = file(...payloads);
    const lastStart = offsets.at(-1)!;
    for (let from = lastStart; from < buf.length; from++) {
      const damaged = Buffer.from(buf);
      damaged.fill(0, from);
      const d = decodeRecords(damaged);
      expect(d.tornTail, `zeros from ${from}`).to.equal(true);
      expect(d.validBytes).to.equal(lastStart);
    }
    // Zeros in the middle of the last record with its end written (pages persisted out of order).
    const holed = Buffer.from(buf);
    holed.fill(0, lastStart + 3, lastStart + 9);
    expect(decodeRecords(holed)).to.include({ tornTail: true, validBytes: lastStart });
  });

  it('detects every single-bit flip in a middle record as corruption at that record', () => {
    const { buf, offsets } = file(payloads[0]!, payloads[1]!, payloads[3]!);
    const start = offsets[1]!;
    const end = offsets[2]!;
    for (let i = start; i < end; i++) {
      for (let bit = 0; bit < 8; bit++) {
        const damaged = Buffer.from(buf);
        damaged[i]! ^= 1 << bit;
        const d = decodeRecords(damaged);
        expect(d.corruptAt, `byte ${i} bit ${bit}`).to.equal(start);
        expect(d.tornTail).to.equal(false);
        expect(d.records).to.deep.equal([payloads[0]]);
        expect(d.reason).to.match(/valid record follows/);
      }
    }
  });

  it('never accepts a bit-flipped last record: it is either a torn tail or corruption', () => {
    const { buf, offsets } = file(payloads[0]!, payloads[1]!);
    const start = offsets[1]!;
    let torn = 0;
    for (let i = start; i < buf.length; i++) {
      for (let bit = 0; bit < 8; bit++) {
        const damaged = Buffer.from(buf);
        damaged[i]! ^= 1 << bit;
        const d = decodeRecords(damaged);
        expect(d.records, `byte ${i} bit ${bit}`).to.deep.equal([payloads[0]]);
        expect(d.validBytes).to.equal(start);
        expect(d.tornTail || d.corruptAt === start, `byte ${i} bit ${bit}`).to.equal(true);
        if (d.tornTail) torn++;
      }
    }
    // Only flips that make the record look unfinished (e.g. a larger length, a NUL) count as torn.
    expect(torn).to.be.greaterThan(0);
    expect(torn).to.be.lessThan((buf.length - start) * 8 / 4);
  });

  it('reports a damaged complete last record (checksum mismatch) as corruption, not a torn tail', () => {
    const { buf, offsets } = file(payloads[0]!, '{"b":2}');
    const damaged = Buffer.from(buf);
    damaged[buf.length - 3] = 'c'.charCodeAt(0); // '2' → 'c' inside the payload
    expect(decodeRecords(damaged)).to.deep.include({ corruptAt: offsets[1], tornTail: false, reason: 'checksum mismatch' });
  });

  it('reports foreign bytes as corruption', () => {
    expect(decodeRecords(Buffer.from('{"not":"a ledger"}\n'))).to.include({ corruptAt: 0, tornTail: false });
    const { buf } = file(payloads[0]!);
    const d = decodeRecords(Buffer.concat([buf, Buffer.from('garbage')]));
    expect(d).to.include({ corruptAt: buf.length, tornTail: false });
    expect(d.records).to.deep.equal([payloads[0]]);
  });

  it('reports garbage between valid records as corruption, never as a torn tail', () => {
    const { buf: a } = file(payloads[0]!);
    const { buf: b } = file(payloads[1]!);
    // Even bytes that look like an unfinished record: a valid record after them means damage.
    const d = decodeRecords(Buffer.concat([a, Buffer.from('HPL1 99'), b]));
    expect(d).to.include({ corruptAt: a.length, tornTail: false });
    const z = decodeRecords(Buffer.concat([a, Buffer.alloc(10), b]));
    expect(z).to.include({ corruptAt: a.length, tornTail: false });
  });

  it('rejects an oversized length claim in a header', () => {
    const d = decodeRecords(Buffer.from(`HPL1 ${MAX_RECORD_BYTES + 1} 00000000\n{}\n`));
    expect(d.corruptAt).to.equal(0);
  });
});
