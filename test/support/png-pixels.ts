import { inflateSync } from 'node:zlib';

/** A decoded PNG: width, height and a pixel reader (8-bit RGB or RGBA, not interlaced: what Chromium writes). */
export interface Pixels {
  width: number;
  height: number;
  /** [r, g, b] at (x, y). */
  at(x: number, y: number): [number, number, number];
}

/** Decode a base64 PNG screenshot (tests sample its pixels; no image library needed). */
export function decodePng(base64: string): Pixels {
  const buf = Buffer.from(base64, 'base64');
  let off = 8;
  let width = 0, height = 0, colorType = 0;
  const idat: Buffer[] = [];
  while (off < buf.length) {
    const len = buf.readUInt32BE(off);
    const type = buf.toString('latin1', off + 4, off + 8);
    const data = buf.subarray(off + 8, off + 8 + len);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      if (data[8] !== 8 || data[12] !== 0) throw new Error('only 8-bit, non-interlaced PNGs');
      colorType = data[9]!;
    } else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') break;
    off += 12 + len;
  }
  const bpp = colorType === 6 ? 4 : colorType === 2 ? 3 : 0;
  if (!bpp) throw new Error(`unsupported PNG colour type ${colorType}`);
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * bpp;
  const out = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let i = 0; i < stride; i++) {
      const a = i >= bpp ? out[y * stride + i - bpp]! : 0;
      const b = y > 0 ? out[(y - 1) * stride + i]! : 0;
      const c = i >= bpp && y > 0 ? out[(y - 1) * stride + i - bpp]! : 0;
      const x = line[i]!;
      let v: number;
      if (filter === 0) v = x;
      else if (filter === 1) v = x + a;
      else if (filter === 2) v = x + b;
      else if (filter === 3) v = x + ((a + b) >> 1);
      else {
        const p = a + b - c;
        const pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
        v = x + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
      }
      out[y * stride + i] = v & 0xff;
    }
  }
  return {
    width,
    height,
    at: (x, y) => {
      const i = y * stride + x * bpp;
      return [out[i]!, out[i + 1]!, out[i + 2]!];
    },
  };
}

/** Share of sampled pixels (a grid over the image, or over a region) close to `rgb`. */
export function shareNear(p: Pixels, rgb: [number, number, number], region = { x0: 0, y0: 0, x1: 1, y1: 1 }, tolerance = 40): number {
  let hit = 0, n = 0;
  for (let gy = 0; gy < 20; gy++) {
    for (let gx = 0; gx < 20; gx++) {
      const x = Math.floor((region.x0 + ((region.x1 - region.x0) * (gx + 0.5)) / 20) * p.width);
      const y = Math.floor((region.y0 + ((region.y1 - region.y0) * (gy + 0.5)) / 20) * p.height);
      const [r, g, b] = p.at(x, y);
      n++;
      if (Math.abs(r - rgb[0]) + Math.abs(g - rgb[1]) + Math.abs(b - rgb[2]) <= tolerance) hit++;
    }
  }
  return hit / n;
}
