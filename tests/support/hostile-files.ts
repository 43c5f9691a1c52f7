import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';

/**
 * Test fixtures made in code, so no binary files sit in the repository and each file says how it
 * was made. Shared by the image pipeline's unit tests and the upload API tests.
 */

/** What a polyglot hides; must never appear in a stored or served byte. */
export const POLYGLOT_SCRIPT = '<script>alert("polyglot")</script>';

/**
 * The GPS block of the EXIF sample. `GPS_MARKER` is written into GPSMapDatum as plain ASCII
 * (EXIF stores strings uncompressed), so a byte search finds it wherever the block survives.
 */
export const GPS_MARKER = 'GRIND-GPS-MARKER';
export const GPS_EXIF = {
  GPSLatitudeRef: 'N',
  GPSLatitude: '51/1 30/1 2613/100',
  GPSLongitudeRef: 'W',
  GPSLongitude: '0/1 7/1 3955/100',
  GPSMapDatum: GPS_MARKER,
} as const;
export const XMP_MARKER = 'GRIND-XMP-MARKER';
/**
 * Byte strings only the photo's metadata holds: the EXIF header, the camera model, the GPS mark
 * and an XMP packet. None may survive processing.
 */
export const METADATA_NEEDLES = ['Exif\0\0', 'GrindCam 9000', GPS_MARKER, XMP_MARKER] as const;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, crc]);
}

/** Inserts chunks just before IEND (the last 12 bytes of any well-formed PNG). */
function withChunksBeforeIend(png: Buffer, chunks: Buffer[]): Buffer {
  return Buffer.concat([
    png.subarray(0, png.length - 12),
    ...chunks,
    png.subarray(png.length - 12),
  ]);
}

/**
 * A valid PNG of one-bit grey pixels, all black. Decoded it needs width x height pixels of
 * memory (400 million for the default) while the file is ~50 KB: a decompression bomb.
 * Built by hand because asking sharp to encode it would itself allocate the whole image.
 */
export function buildPngBomb(width = 20_000, height = width): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 1; // bit depth
  ihdr[9] = 0; // greyscale
  // compression, filter and interlace methods stay 0
  const rowBytes = 1 + Math.ceil(width / 8); // filter byte + packed pixels
  const raw = Buffer.alloc(rowBytes * height); // zeros: filter "none", black pixels
  const idat = deflateSync(raw, { level: 9 });
  return Buffer.concat([
    PNG_SIGNATURE,
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', idat),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A colourful gradient so encoders have real work and thumbnails are not blank. */
function gradient(width: number, height: number): Buffer {
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      pixels[i] = (x * 255) / width;
      pixels[i + 1] = (y * 255) / height;
      pixels[i + 2] = ((x + y) * 127) / (width + height);
    }
  }
  return pixels;
}

export async function buildValidJpeg(width = 800, height = 600): Promise<Buffer> {
  return sharp(gradient(width, height), { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 85 })
    .toBuffer();
}

export async function buildValidPng(width = 640, height = 480): Promise<Buffer> {
  return sharp(gradient(width, height), { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}

/** An animated GIF whose frames differ in colour, so a kept animation is observable. */
export async function buildAnimatedGif(width = 120, height = 90, frames = 4): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * frames * 4);
  for (let f = 0; f < frames; f++) {
    const [r, g, b] = [(f * 80) % 256, 255 - f * 60, (f * 140) % 256];
    for (let p = 0; p < width * height; p++) {
      const i = (f * width * height + p) * 4;
      pixels[i] = r;
      pixels[i + 1] = g;
      pixels[i + 2] = b;
      pixels[i + 3] = 255;
    }
  }
  return sharp(pixels, {
    raw: { width, height: height * frames, channels: 4, pageHeight: height },
  })
    .gif({ delay: Array.from({ length: frames }, () => 100), loop: 0 })
    .toBuffer();
}

/**
 * The audit's GIF bomb: small on the wire and in pixels per frame, but every frame is random
 * noise, so palette quantisation and LZW find nothing to share and each frame costs full price
 * (100x100 x 300 frames: about 4 MB, 3 megapixel-frames).
 */
export async function buildNoiseGifBomb(
  width = 100,
  height = 100,
  frames = 300,
  seed = 1,
): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * frames * 3);
  let state = seed >>> 0 || 1;
  for (let i = 0; i < pixels.length; i++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    pixels[i] = state & 255;
  }
  return sharp(pixels, { raw: { width, height: height * frames, channels: 3, pageHeight: height } })
    .gif({ delay: Array.from({ length: frames }, () => 40), loop: 0, effort: 1, dither: 0 })
    .toBuffer();
}

/**
 * A phone photo as it arrives: EXIF with camera, GPS position and orientation 6 (the sensor
 * image is landscape, the photo is meant to be shown rotated to portrait), XMP, and a Display
 * P3 colour profile.
 */
export async function buildJpegWithGps(width = 600, height = 400): Promise<Buffer> {
  return (
    sharp(gradient(width, height), { raw: { width, height, channels: 3 } })
      .withExif({ IFD0: { Make: 'Grind', Model: 'GrindCam 9000' }, IFD3: { ...GPS_EXIF } })
      // Orientation is its own setting in sharp; an Orientation entry in withExif is overwritten.
      .withMetadata({ orientation: 6 })
      .withXmp(
        '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">' +
          `<rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/" dc:creator="${XMP_MARKER}"/>` +
          '</rdf:RDF></x:xmpmeta>',
      )
      .withIccProfile('p3')
      .jpeg({ quality: 85 })
      .toBuffer()
  );
}

/**
 * PNG and HTML at once: a valid PNG with the script in a tEXt chunk (kept by naive copiers)
 * and again after IEND (what a browser sniffing HTML would find).
 */
export async function buildPngHtmlPolyglot(): Promise<Buffer> {
  const png = await buildValidPng(64, 64);
  const text = pngChunk('tEXt', Buffer.from(`Comment\0<html><body>${POLYGLOT_SCRIPT}`, 'latin1'));
  return Buffer.concat([
    withChunksBeforeIend(png, [text]),
    Buffer.from(`<html><body>${POLYGLOT_SCRIPT}</body></html>\n`),
  ]);
}

/** A valid PNG of incompressible noise just over 6 MB: a real image, only too big. */
export async function buildSixMegabytePng(): Promise<Buffer> {
  const width = 1500;
  const height = 1400;
  const png = await sharp({
    create: {
      width,
      height,
      channels: 3,
      background: '#000',
      noise: { type: 'gaussian', mean: 128, sigma: 90 },
    },
  })
    .png({ compressionLevel: 0 })
    .toBuffer();
  if (png.length <= 6 * 1024 * 1024) throw new Error(`noise PNG only ${png.length} bytes`);
  return png;
}

export type HostileExpectation =
  /** Must be refused with this status. */
  | { outcome: 'reject'; status: 400 | 413 | 415 }
  /** May be accepted only as a re-encoded image without the listed byte strings. */
  | { outcome: 'reencode'; mustNotContain: readonly string[]; orReject?: 400 };

export interface HostileFile {
  /** What the browser claims: file name and Content-Type. */
  name: string;
  claimedType: string;
  bytes: Buffer;
  expect: HostileExpectation;
}

/** The corpus of spec issue 4: none of these may be stored or served as it came. */
export async function buildHostileCorpus(): Promise<HostileFile[]> {
  const html = Buffer.from(
    `<!doctype html><html><head><title>x</title></head><body>${POLYGLOT_SCRIPT}</body></html>\n`,
  );
  const svg = Buffer.from(
    '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">' +
      `<rect width="100" height="100" fill="red"/><script>alert("svg")</script></svg>\n`,
  );
  const jpeg = await buildValidJpeg(800, 600);
  return [
    {
      name: 'cat.png',
      claimedType: 'image/png',
      bytes: html,
      expect: { outcome: 'reject', status: 415 },
    },
    {
      name: 'vector.png',
      claimedType: 'image/png',
      bytes: svg,
      expect: { outcome: 'reject', status: 415 },
    },
    {
      name: 'polyglot.png',
      claimedType: 'image/png',
      bytes: await buildPngHtmlPolyglot(),
      expect: { outcome: 'reencode', mustNotContain: ['<script', '<html'], orReject: 400 },
    },
    {
      name: 'truncated.jpg',
      claimedType: 'image/jpeg',
      bytes: jpeg.subarray(0, Math.floor(jpeg.length / 2)),
      expect: { outcome: 'reject', status: 400 },
    },
    {
      name: 'huge.png',
      claimedType: 'image/png',
      bytes: await buildSixMegabytePng(),
      expect: { outcome: 'reject', status: 413 },
    },
    {
      name: 'bomb.png',
      claimedType: 'image/png',
      bytes: buildPngBomb(20_000, 20_000),
      expect: { outcome: 'reject', status: 413 },
    },
    {
      name: 'holiday.jpg',
      claimedType: 'image/jpeg',
      bytes: await buildJpegWithGps(),
      expect: { outcome: 'reencode', mustNotContain: METADATA_NEEDLES },
    },
  ];
}
