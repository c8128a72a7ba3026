import sharp from "sharp";

export async function testImage(format: "png" | "jpeg" = "jpeg", hue = 30): Promise<Buffer> {
  const image = sharp({
    create: { width: 480, height: 360, channels: 3, background: { r: 200, g: (hue * 3) % 255, b: 90 } },
  });
  return format === "png" ? image.png().toBuffer() : image.jpeg({ quality: 85 }).toBuffer();
}

export async function upload(name: string, format: "png" | "jpeg" = "jpeg", hue = 30) {
  return { name, mimeType: format === "png" ? "image/png" : "image/jpeg", buffer: await testImage(format, hue) };
}

export const fakeJpeg = {
  name: "holiday.jpg",
  mimeType: "image/jpeg",
  buffer: Buffer.from("<html><script>alert(1)</script></html>"),
};
