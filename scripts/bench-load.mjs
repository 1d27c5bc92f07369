// Load generator for scripts/bench.mjs, in its own process: keep-alive GETs from `connections`
// loops for `seconds` (with a Cookie header when given), then prints {requests, rps, p50, p99} as JSON.
// Loopback only.
import http from 'node:http';

const [url, seconds = '5', connections = '32', cookie = ''] = process.argv.slice(2);
const target = new URL(url);
if (!['127.0.0.1', 'localhost', '[::1]'].includes(target.hostname)) throw new Error('bench targets loopback only');
const agent = new http.Agent({ keepAlive: true, maxSockets: Number(connections) });
const latencies = [];
let errors = 0;
const deadline = performance.now() + Number(seconds) * 1000;

function get() {
  return new Promise((resolve) => {
    const started = performance.now();
    const req = http.get(target, { agent, headers: cookie ? { cookie } : {} }, (res) => {
      res.resume();
      res.on('end', () => {
        if (res.statusCode === 200) latencies.push(performance.now() - started);
        else errors++;
        resolve();
      });
    });
    req.on('error', () => {
      errors++;
      resolve();
    });
  });
}

async function loop() {
  while (performance.now() < deadline) await get();
}

const began = performance.now();
await Promise.all(Array.from({ length: Number(connections) }, loop));
const elapsed = (performance.now() - began) / 1000;
latencies.sort((a, b) => a - b);
const pick = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
console.log(JSON.stringify({ requests: latencies.length, errors, rps: latencies.length / elapsed, p50: pick(0.5), p99: pick(0.99) }));
agent.destroy();
