// A loopback HTTP server for the Gatling fixture: /fast answers at once, /slow after 5 to 40 ms
// (fixed by a counter, so each run looks alike), /fail with a 500.
import { createServer } from "node:http";
const port = Number(process.argv[2] ?? 41850);
let n = 0;
createServer((req, res) => {
  if (req.url === "/fail") {
    res.writeHead(500).end("no");
    return;
  }
  const delay = req.url === "/slow" ? 5 + ((n++ * 7) % 36) : 0;
  setTimeout(() => res.writeHead(200, { "content-type": "text/plain" }).end("ok"), delay);
}).listen(port, "127.0.0.1");
