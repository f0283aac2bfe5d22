/**
 * A small authoritative DNS server over UDP for tests (decision 047), written from RFC 1035: it reads the
 * question (§4.1.1 header, §4.1.2 question, QNAME as labels §3.1), and answers TXT records (§3.3.14: RDATA is
 * one or more <character-string>s, each a length octet and up to 255 octets) from its zone; a name it does not
 * hold is NXDOMAIN (RCODE 3), a name it holds without TXT records an empty NOERROR answer; a name in `silent`
 * gets no answer at all (the resolver times out).
 */
import { createSocket, type Socket } from 'node:dgram';
import type { AddressInfo } from 'node:net';

const TYPE_TXT = 16;
const CLASS_IN = 1;

export class DnsServer {
  /** Name (lower case, no final dot) → its TXT records, each a list of character-strings. */
  readonly zone = new Map<string, string[][]>();
  readonly silent = new Set<string>();
  /** The questions asked, in order (name and type). */
  readonly asked: { name: string; type: number }[] = [];
  private socket?: Socket;
  address = '';

  async start(): Promise<void> {
    const socket = createSocket('udp4');
    this.socket = socket;
    socket.on('message', (msg, from) => {
      const answer = this.answer(msg);
      if (answer) socket.send(answer, from.port, from.address);
    });
    await new Promise<void>((r) => socket.bind(0, '127.0.0.1', r));
    this.address = `127.0.0.1:${(socket.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    return new Promise((r) => (this.socket ? this.socket.close(() => r()) : r()));
  }

  private answer(query: Buffer): Buffer | null {
    if (query.length < 12) return null;
    const id = query.readUInt16BE(0);
    const flags = query.readUInt16BE(2);
    if (flags & 0x8000 || query.readUInt16BE(4) !== 1) return null; // a response, or not one question
    // QNAME: labels, each a length octet and that many octets, ended by the zero-length root label
    const labels: string[] = [];
    let at = 12;
    while (at < query.length && query[at] !== 0) {
      const len = query[at]!;
      if (len > 63) return null; // compression is not used in questions we accept
      labels.push(query.subarray(at + 1, at + 1 + len).toString('latin1'));
      at += 1 + len;
    }
    at += 1;
    const qtype = query.readUInt16BE(at);
    const qclass = query.readUInt16BE(at + 2);
    const questionEnd = at + 4;
    const name = labels.join('.').toLowerCase();
    this.asked.push({ name, type: qtype });
    if (this.silent.has(name)) return null;
    const records = this.zone.get(name);
    const rcode = records === undefined ? 3 : 0;
    const answers = records && qtype === TYPE_TXT && qclass === CLASS_IN ? records : [];
    const rrs = answers.map((strings) => {
      const rdata = Buffer.concat(
        strings.map((s) => {
          const bytes = Buffer.from(s, 'utf8');
          if (bytes.length > 255) throw new Error('a character-string is at most 255 octets');
          return Buffer.concat([Buffer.from([bytes.length]), bytes]);
        }),
      );
      const rr = Buffer.alloc(12);
      rr.writeUInt16BE(0xc00c, 0); // NAME: a pointer to the question's name (§4.1.4), at offset 12
      rr.writeUInt16BE(TYPE_TXT, 2);
      rr.writeUInt16BE(CLASS_IN, 4);
      rr.writeUInt32BE(60, 6); // TTL
      rr.writeUInt16BE(rdata.length, 10);
      return Buffer.concat([rr, rdata]);
    });
    const header = Buffer.alloc(12);
    header.writeUInt16BE(id, 0);
    // QR=1, the query's opcode and RD, AA=1, RA=0, RCODE
    header.writeUInt16BE(0x8000 | (flags & 0x7800) | 0x0400 | (flags & 0x0100) | rcode, 2);
    header.writeUInt16BE(1, 4); // QDCOUNT
    header.writeUInt16BE(rrs.length, 6); // ANCOUNT
    return Buffer.concat([header, query.subarray(12, questionEnd), ...rrs]);
  }
}
