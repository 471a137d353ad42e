import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/** A one-day certificate for localhost (and 127.0.0.1), made by openssl in `dir`: an https fake's key and certificate. */
export function selfSigned(dir: string): { key: Buffer; cert: Buffer } {
  const key = path.join(dir, "key.pem");
  const cert = path.join(dir, "cert.pem");
  execFileSync("openssl", [
    ...["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1", "-subj", "/CN=localhost"],
    ...["-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1", "-keyout", key, "-out", cert],
  ]);
  return { key: fs.readFileSync(key), cert: fs.readFileSync(cert) };
}
