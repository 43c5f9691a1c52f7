import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  buildAnimatedGif,
  buildHostileCorpus,
  buildJpegWithGps,
  buildPngBomb,
  buildPngHtmlPolyglot,
  buildSixMegabytePng,
  buildValidJpeg,
  buildValidPng,
  GPS_MARKER,
  METADATA_NEEDLES,
  POLYGLOT_SCRIPT,
  type HostileFile,
} from '#test-support/hostile-files.ts';
import {
  CorruptImageError,
  createImageProcessor,
  ImageRejectedError,
  ImageTooLargeError,
  processImage,
  sniffImageType,
  UnsupportedImageError,
  type ProcessedImage,
} from './image-processing.ts';

const contains = (haystack: Buffer, needle: string) =>
  haystack.includes(Buffer.from(needle, 'latin1'));

async function rejectionOf(input: Buffer, limits = {}): Promise<ImageRejectedError> {
  try {
    await processImage(input, limits);
  } catch (error) {
    expect(error).toBeInstanceOf(ImageRejectedError);
    return error as ImageRejectedError;
  }
  throw new Error('expected the image to be refused');
}

/** Nothing but pixels may remain in an output. */
async function expectNoMetadata(buffer: Buffer) {
  const meta = await sharp(buffer).metadata();
  expect(meta.exif).toBeUndefined();
  expect(meta.xmp).toBeUndefined();
  expect(meta.iptc).toBeUndefined();
  expect(meta.icc).toBeUndefined();
  expect(meta.hasProfile).toBe(false);
  expect(meta.comments).toBeUndefined();
  expect(meta.orientation).toBeUndefined();
}

describe('sniffImageType', () => {
  it('recognises JPEG, PNG and GIF by their first bytes', async () => {
    expect(sniffImageType(await buildValidJpeg(8, 8))).toBe('jpeg');
    expect(sniffImageType(await buildValidPng(8, 8))).toBe('png');
    expect(sniffImageType(await buildAnimatedGif(8, 8, 2))).toBe('gif');
    expect(sniffImageType(Buffer.from('GIF87a......'))).toBe('gif');
  });

  it.each([
    ['empty', Buffer.alloc(0)],
    ['html', Buffer.from('<!doctype html><script>alert(1)</script>')],
    ['svg', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')],
    ['half a PNG signature', Buffer.from([0x89, 0x50, 0x4e, 0x47])],
    ['GIF88a', Buffer.from('GIF88a......')],
    ['JPEG start without a marker', Buffer.from([0xff, 0xd8, 0x00, 0x00])],
  ])('refuses %s', (_name, bytes) => {
    expect(sniffImageType(bytes)).toBeNull();
  });
});

describe('processImage with valid images', () => {
  it('re-encodes a JPEG and makes a WebP thumbnail 400 px wide', async () => {
    const out = await processImage(await buildValidJpeg(800, 600));
    expect(out.kind).toBe('jpeg');
    expect(out.display).toMatchObject({
      contentType: 'image/jpeg',
      ext: 'jpg',
      width: 800,
      height: 600,
      frames: 1,
    });
    expect((await sharp(out.display.buffer).metadata()).format).toBe('jpeg');
    expect(out.thumbnail).toMatchObject({ contentType: 'image/webp', width: 400, height: 300 });
    const thumb = await sharp(out.thumbnail.buffer).metadata();
    expect([thumb.format, thumb.width, thumb.height]).toEqual(['webp', 400, 300]);
  });

  it('keeps a PNG a PNG', async () => {
    const out = await processImage(await buildValidPng(640, 480));
    expect(out.display).toMatchObject({ contentType: 'image/png', ext: 'png', width: 640 });
    expect((await sharp(out.display.buffer).metadata()).format).toBe('png');
  });

  it('caps the display image at 1600 px wide and never enlarges a small one', async () => {
    const wide = await processImage(await buildValidJpeg(3200, 1000));
    expect([wide.display.width, wide.display.height]).toEqual([1600, 500]);
    expect([wide.thumbnail.width, wide.thumbnail.height]).toEqual([400, 125]);
    const meta = await sharp(wide.display.buffer).metadata();
    expect([meta.width, meta.height]).toEqual([1600, 500]);

    const tiny = await processImage(await buildValidPng(64, 48));
    expect([tiny.display.width, tiny.display.height]).toEqual([64, 48]);
    expect([tiny.thumbnail.width, tiny.thumbnail.height]).toEqual([64, 48]);
  });

  it('keeps an animated GIF animated, with its timing, and thumbnails its first frame', async () => {
    const input = await buildAnimatedGif(120, 90, 4);
    const out = await processImage(input);
    expect(out.display).toMatchObject({
      contentType: 'image/gif',
      ext: 'gif',
      width: 120,
      height: 90,
      frames: 4,
    });
    const meta = await sharp(out.display.buffer, { animated: true }).metadata();
    expect(meta.format).toBe('gif');
    expect(meta.pages).toBe(4);
    expect(meta.pageHeight).toBe(90);
    expect(meta.delay).toEqual([100, 100, 100, 100]);
    // The frames still differ: a flattened GIF would repeat one colour.
    const firstPixels = await Promise.all(
      [0, 1, 2, 3].map((page) =>
        sharp(out.display.buffer, { page })
          .extract({ left: 60, top: 45, width: 1, height: 1 })
          .raw()
          .toBuffer(),
      ),
    );
    expect(new Set(firstPixels.map((p) => p.toString('hex'))).size).toBe(4);

    const thumb = await sharp(out.thumbnail.buffer, { animated: true }).metadata();
    expect(thumb.format).toBe('webp');
    expect(thumb.pages ?? 1).toBe(1);
    expect([thumb.width, thumb.height]).toEqual([120, 90]);
  });

  it('shrinks a large animation frame by frame', async () => {
    const out = await processImage(await buildAnimatedGif(2000, 300, 3));
    expect(out.display).toMatchObject({ width: 1600, height: 240, frames: 3 });
    const meta = await sharp(out.display.buffer, { animated: true }).metadata();
    expect([meta.pages, meta.pageHeight, meta.width]).toEqual([3, 240, 1600]);
  });
});

describe('a phone photo with EXIF GPS', () => {
  let input: Buffer;
  let out: ProcessedImage;

  beforeAll(async () => {
    input = await buildJpegWithGps(600, 400);
    out = await processImage(input);
  });

  it('really carries the location, camera, XMP and a colour profile going in', async () => {
    for (const needle of METADATA_NEEDLES) expect(contains(input, needle), needle).toBe(true);
    const meta = await sharp(input).metadata();
    expect(meta.exif).toBeDefined();
    expect(meta.xmp).toBeDefined();
    expect(meta.hasProfile).toBe(true);
    expect(meta.orientation).toBe(6);
  });

  it('comes out without any of it, in the display image and the thumbnail', async () => {
    for (const buffer of [out.display.buffer, out.thumbnail.buffer]) {
      for (const needle of METADATA_NEEDLES) expect(contains(buffer, needle), needle).toBe(false);
      // The GPS IFD pointer tag (0x8825) only lives in EXIF, which is gone as a whole.
      expect(contains(buffer, 'Exif')).toBe(false);
      await expectNoMetadata(buffer);
    }
  });

  it('is turned upright before its orientation tag is dropped', async () => {
    expect([out.display.width, out.display.height]).toEqual([400, 600]);
    const meta = await sharp(out.display.buffer).metadata();
    expect([meta.width, meta.height]).toEqual([400, 600]);
    expect([out.thumbnail.width, out.thumbnail.height]).toEqual([400, 600]);
  });
});

describe('the hostile corpus', () => {
  let corpus: HostileFile[];

  beforeAll(async () => {
    corpus = await buildHostileCorpus();
  });

  it('holds every kind the issue names', () => {
    expect(corpus.map((f) => f.name)).toEqual([
      'cat.png',
      'vector.png',
      'polyglot.png',
      'truncated.jpg',
      'huge.png',
      'bomb.png',
      'holiday.jpg',
    ]);
  });

  it('accepts none of them as they came', async () => {
    for (const file of corpus) {
      let out: ProcessedImage | null = null;
      let error: unknown = null;
      try {
        out = await processImage(file.bytes);
      } catch (e) {
        error = e;
      }
      if (file.expect.outcome === 'reject') {
        expect(error, file.name).toBeInstanceOf(ImageRejectedError);
        expect((error as ImageRejectedError).status, file.name).toBe(file.expect.status);
        expect((error as Error).message.length, file.name).toBeGreaterThan(10);
        continue;
      }
      if (error) {
        expect(error, file.name).toBeInstanceOf(CorruptImageError);
        expect(file.expect.orReject, file.name).toBe(400);
        continue;
      }
      expect(out, file.name).not.toBeNull();
      for (const buffer of [out!.display.buffer, out!.thumbnail.buffer]) {
        expect(buffer.equals(file.bytes), file.name).toBe(false);
        for (const needle of file.expect.mustNotContain) {
          expect(contains(buffer, needle), `${file.name} still holds ${needle}`).toBe(false);
        }
        await expectNoMetadata(buffer);
      }
    }
  });

  it('turns HTML and SVG named .png away as unsupported', async () => {
    for (const name of ['cat.png', 'vector.png']) {
      const file = corpus.find((f) => f.name === name)!;
      const error = await rejectionOf(file.bytes);
      expect(error).toBeInstanceOf(UnsupportedImageError);
      expect(error.message).toBe('Only JPG, PNG and GIF images can be uploaded.');
    }
  });

  it('refuses other real image formats too: the type list is an allow-list', async () => {
    const webp = await sharp(await buildValidPng(16, 16))
      .webp()
      .toBuffer();
    const tiff = await sharp(await buildValidPng(16, 16))
      .tiff()
      .toBuffer();
    expect(await rejectionOf(webp)).toBeInstanceOf(UnsupportedImageError);
    expect(await rejectionOf(tiff)).toBeInstanceOf(UnsupportedImageError);
  });

  it('re-encodes the PNG/HTML polyglot into bytes with no script left', async () => {
    const input = await buildPngHtmlPolyglot();
    expect(sniffImageType(input)).toBe('png');
    expect(contains(input, POLYGLOT_SCRIPT)).toBe(true);
    const out = await processImage(input);
    for (const buffer of [out.display.buffer, out.thumbnail.buffer]) {
      expect(contains(buffer, '<script')).toBe(false);
      expect(contains(buffer, '<html')).toBe(false);
    }
  });

  it('refuses a truncated JPEG and bytes that only start like a PNG as damaged', async () => {
    const jpeg = await buildValidJpeg(800, 600);
    const truncated = await rejectionOf(jpeg.subarray(0, jpeg.length >> 1));
    expect(truncated).toBeInstanceOf(CorruptImageError);
    expect(truncated.status).toBe(400);
    const fake = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.from('<html>not really a png</html>'),
    ]);
    expect(await rejectionOf(fake)).toBeInstanceOf(CorruptImageError);
  });

  it('refuses the 6 MB file for its size alone', async () => {
    const huge = await buildSixMegabytePng();
    expect(huge.length).toBeGreaterThan(6 * 1024 * 1024);
    const error = await rejectionOf(huge);
    expect(error).toBeInstanceOf(ImageTooLargeError);
    expect(error.message).toBe('The image is larger than 5 MB.');
    // The same bytes under a higher limit are a fine image: size was the only reason.
    const out = await processImage(huge, { maxInputBytes: 10 * 1024 * 1024 });
    expect(out.display.width).toBe(1500);
  });
});

describe('decompression bombs', () => {
  it('refuses a 20000 x 20000 PNG from its header, quickly and without decoding it', async () => {
    const bomb = buildPngBomb(20_000, 20_000);
    expect(bomb.length).toBeLessThan(100_000);
    const header = await sharp(bomb, { limitInputPixels: false }).metadata();
    expect([header.width, header.height]).toEqual([20_000, 20_000]);

    const rssBefore = process.memoryUsage().rss;
    const started = performance.now();
    const error = await rejectionOf(bomb);
    const elapsed = performance.now() - started;
    expect(error).toBeInstanceOf(ImageTooLargeError);
    expect(error.status).toBe(413);
    expect(error.message).toBe('The image has too many pixels: at most 40 megapixels.');
    // Decoding would take seconds and 400 MB; reading the header takes neither.
    expect(elapsed).toBeLessThan(500);
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(64 * 1024 * 1024);
  });

  it('draws the pixel line exactly at the limit', async () => {
    const limits = { maxInputPixels: 1_000_000 };
    const atLimit = await processImage(buildPngBomb(1000, 1000), limits);
    expect(atLimit.display.width).toBe(1000);
    expect(await rejectionOf(buildPngBomb(1001, 1000), limits)).toBeInstanceOf(ImageTooLargeError);
  });

  it('counts every frame of an animation against the pixel limit, and caps frames', async () => {
    const gif = await buildAnimatedGif(100, 100, 5); // 10,000 pixels a frame, 50,000 in all
    expect((await processImage(gif, { maxInputPixels: 50_000 })).display.frames).toBe(5);
    expect(await rejectionOf(gif, { maxInputPixels: 49_999 })).toBeInstanceOf(ImageTooLargeError);
    const frames = await rejectionOf(gif, { maxFrames: 4 });
    expect(frames).toBeInstanceOf(ImageTooLargeError);
    expect(frames.message).toBe('The animation has more than 4 frames.');
  });
});

describe('createImageProcessor', () => {
  it('runs at most `concurrency` images at once and finishes them all', async () => {
    const inputs = await Promise.all(
      Array.from({ length: 6 }, (_, i) => buildValidJpeg(300 + i * 10, 200)),
    );
    let active = 0;
    let peak = 0;
    const processor = createImageProcessor({
      concurrency: 2,
      run: async (input, limits) => {
        active++;
        peak = Math.max(peak, active);
        try {
          return await processImage(input, limits);
        } finally {
          active--;
        }
      },
    });
    const results = Promise.all(
      inputs.map((input, i) => processor.enter(`member-${i}`).process(input)),
    );
    expect(processor.pending).toBe(6);
    const outs = await results;
    expect(peak).toBe(2);
    expect(outs.map((o) => o.display.width)).toEqual([300, 310, 320, 330, 340, 350]);
    expect(processor.pending).toBe(0);
  });

  it('frees its slot when an image is refused', async () => {
    const processor = createImageProcessor({ concurrency: 1 });
    const png = await buildValidPng(10, 10);
    const bad = expect(processor.enter('a').process(Buffer.from('<html>'))).rejects.toBeInstanceOf(
      UnsupportedImageError,
    );
    const good = processor.enter('b').process(png);
    await bad;
    expect((await good).display.width).toBe(10);
    expect(processor.pending).toBe(0);
  });
});

it('finds the GPS marker by plain byte search (the check the API tests reuse)', async () => {
  expect(contains(await buildJpegWithGps(), GPS_MARKER)).toBe(true);
});
