// Where a heap snapshot's memory is: self sizes summed by node type and constructor (or string,
// code, array-buffer data...), the largest first. `node --import tsx src/heap-summary.ts <file>
// [rows]`. A heap snapshot of a large process is large: the file is read as one string.
import { readFileSync } from 'node:fs';

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

const [file, rowsArg] = process.argv.slice(2);
if (!file) throw new Error('usage: heap-summary.ts <file.heapsnapshot> [rows]');
const data = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
const fields = data.snapshot.meta.node_fields;
const types = data.snapshot.meta.node_types[0];
const width = fields.length;
const typeAt = fields.indexOf('type');
const nameAt = fields.indexOf('name');
const sizeAt = fields.indexOf('self_size');

const groups = new Map<string, { count: number; bytes: number }>();
let total = 0;
for (let i = 0; i < data.nodes.length; i += width) {
  const type = types[data.nodes[i + typeAt]!]!;
  const size = data.nodes[i + sizeAt]!;
  // Objects and closures by constructor; strings, code and the rest by type alone.
  const name =
    type === 'object' || type === 'closure' || type === 'native' || type === 'hidden'
      ? `${type}: ${data.strings[data.nodes[i + nameAt]!]!.slice(0, 60)}`
      : type;
  const group = groups.get(name) ?? { count: 0, bytes: 0 };
  group.count++;
  group.bytes += size;
  groups.set(name, group);
  total += size;
}
const mb = (bytes: number) => (bytes / 1e6).toFixed(1).padStart(8);
console.log(`${mb(total)} MB in ${(data.nodes.length / width).toLocaleString('en')} nodes`);
for (const [name, { count, bytes }] of [...groups]
  .sort((a, b) => b[1].bytes - a[1].bytes)
  .slice(0, Number(rowsArg ?? 30)))
  console.log(`${mb(bytes)} MB ${count.toLocaleString('en').padStart(10)}  ${name}`);
