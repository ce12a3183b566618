// Reads a gridgym trajectory shard (Arrow IPC file, zstd-compressed buffers)
// with Apache Arrow JS, and its Parquet export with DuckDB, and prints what
// each saw as one JSON line. Used by datasets' TestIndependentReader.
//
// usage: node independent_reader.cjs MODULES_DIR SHARD.arrow EXPORT.parquet
//
// MODULES_DIR holds node_modules with apache-arrow, fzstd and @duckdb/node-api.
'use strict';
const fs = require('fs');
const path = require('path');
const { createRequire } = require('module');

async function main() {
  const [modules, shard, parquet] = process.argv.slice(2);
  const req = createRequire(path.join(path.resolve(modules), 'noop.js'));
  const arrow = req('apache-arrow');
  const fzstd = req('fzstd');
  // Arrow JS decompresses IPC bodies only through codecs registered here.
  // Its loader views each decompressed buffer as a typed array in place, so
  // hand it buffers that start on an 8-byte boundary (fzstd may return a
  // view into a larger buffer).
  arrow.compressionRegistry.set(arrow.CompressionType.ZSTD, {
    decode: (data) => {
      const d = fzstd.decompress(data);
      return d.byteOffset % 8 === 0 ? d : d.slice();
    },
  });
  const table = arrow.tableFromIPC(fs.readFileSync(shard));
  let stepSum = 0, rewardSum = 0, legalWords = 0;
  for (const v of table.getChild('step')) stepSum += v;
  for (const v of table.getChild('reward')) rewardSum += v;
  const legal = table.getChild('legal');
  if (legal.length > 0) legalWords = legal.get(0).length;
  const agents = new Set();
  for (const a of table.getChild('agent')) agents.add(a);
  const out = {
    arrow: {
      rows: table.numRows,
      step_sum: stepSum,
      reward_sum: rewardSum,
      legal_words: legalWords,
      agents: [...agents].sort(),
      game: table.schema.metadata.get('gridgym.game'),
    },
  };

  const duckdb = req('@duckdb/node-api');
  const instance = await duckdb.DuckDBInstance.create(':memory:');
  const conn = await instance.connect();
  const reader = await conn.runAndReadAll(
    'SELECT count(*)::BIGINT AS n, sum(step)::BIGINT AS steps, sum(reward)::DOUBLE AS reward FROM read_parquet($1)',
    [parquet]);
  const row = reader.getRowObjects()[0];
  const kv = await conn.runAndReadAll(
    "SELECT value::VARCHAR AS v FROM parquet_kv_metadata($1) WHERE key::VARCHAR = 'gridgym.game'", [parquet]);
  const kvRows = kv.getRowObjects();
  out.parquet = {
    rows: Number(row.n),
    step_sum: Number(row.steps),
    reward_sum: Number(row.reward),
    game: kvRows.length ? kvRows[0].v : null,
  };
  conn.closeSync();
  process.stdout.write(JSON.stringify(out) + '\n');
}

main().catch((e) => {
  process.stderr.write(String(e && e.stack || e) + '\n');
  process.exit(1);
});
