import sharp from "sharp";

export interface PersonLooks {
  skin: string;
  hair: string;
  hairStyle: "short" | "long" | "bun" | "curly" | "bald";
  shirt: string;
  background: string;
  beard?: boolean;
  glasses?: boolean;
}

export interface PetLooks {
  kind: "dog" | "cat";
  fur: string;
  light: string;
  ears: "floppy" | "pointy" | "long";
  eyes: string;
  /** Darker ears and mask (Siamese points, a husky's cap, a beagle's saddle). */
  dark?: string;
  background: string;
}

const WIDTH = 800;
const HEIGHT = 1000;

function frame(background: string, body: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 800 1000">
<defs><radialGradient id="bg" cx="0.5" cy="0.35" r="0.8"><stop offset="0" stop-color="#ffffff" stop-opacity="0.55"/><stop offset="1" stop-color="#ffffff" stop-opacity="0"/></radialGradient></defs>
<rect width="800" height="1000" fill="${background}"/><rect width="800" height="1000" fill="url(#bg)"/>${body}</svg>`;
}

function personSvg(looks: PersonLooks): string {
  const { skin, hair, shirt } = looks;
  const behind =
    looks.hairStyle === "long"
      ? `<path d="M235 400 C225 220 320 170 400 170 C480 170 575 220 565 400 L585 700 L215 700 Z" fill="${hair}"/>`
      : looks.hairStyle === "bun"
        ? `<circle cx="400" cy="165" r="70" fill="${hair}"/>`
        : "";
  const top = {
    short: `<path d="M262 390 C250 240 330 195 400 195 C470 195 550 240 538 390 C520 300 470 270 400 275 C330 270 280 300 262 390 Z" fill="${hair}"/>`,
    long: `<path d="M258 420 C245 240 330 195 400 195 C470 195 555 240 542 420 C515 300 455 265 400 270 C345 265 285 300 258 420 Z" fill="${hair}"/>`,
    bun: `<path d="M262 380 C255 245 330 205 400 205 C470 205 545 245 538 380 C515 300 460 275 400 278 C340 275 285 300 262 380 Z" fill="${hair}"/>`,
    curly: `<g fill="${hair}">${[
      [290, 280],
      [335, 235],
      [400, 220],
      [465, 235],
      [510, 280],
      [268, 340],
      [532, 340],
      [360, 250],
      [440, 250],
    ]
      .map(([x, y]) => `<circle cx="${x}" cy="${y}" r="52"/>`)
      .join("")}</g>`,
    bald: `<path d="M275 330 C290 250 350 225 400 225 C450 225 510 250 525 330 C500 285 450 270 400 270 C350 270 300 285 275 330 Z" fill="${hair}" opacity="0.35"/>`,
  }[looks.hairStyle];
  const beard = looks.beard
    ? `<path d="M285 430 C290 560 350 600 400 600 C450 600 510 560 515 430 C500 500 460 520 400 520 C340 520 300 500 285 430 Z" fill="${hair}"/>`
    : "";
  const glasses = looks.glasses
    ? `<g fill="none" stroke="#2b2b2b" stroke-width="7"><circle cx="350" cy="415" r="38"/><circle cx="450" cy="415" r="38"/><path d="M388 412 L412 412"/></g>`
    : "";
  return frame(
    looks.background,
    `${behind}
<path d="M120 1000 C120 760 250 660 400 660 C550 660 680 760 680 1000 Z" fill="${shirt}"/>
<path d="M345 560 L455 560 L460 690 C430 720 370 720 340 690 Z" fill="${skin}"/>
<path d="M340 680 C370 720 430 720 460 680 L430 740 L370 740 Z" fill="#000" opacity="0.08"/>
<ellipse cx="262" cy="430" rx="26" ry="40" fill="${skin}"/><ellipse cx="538" cy="430" rx="26" ry="40" fill="${skin}"/>
<ellipse cx="400" cy="420" rx="140" ry="175" fill="${skin}"/>
${top}${beard}
<g fill="#2b2b2b"><ellipse cx="350" cy="418" rx="13" ry="15"/><ellipse cx="450" cy="418" rx="13" ry="15"/></g>
<g fill="#fff"><circle cx="355" cy="412" r="4"/><circle cx="455" cy="412" r="4"/></g>
<g stroke="${hair}" stroke-width="9" stroke-linecap="round" fill="none"><path d="M322 378 Q350 364 378 376"/><path d="M422 376 Q450 364 478 378"/></g>
<path d="M400 430 Q392 470 404 478" stroke="#000" stroke-opacity="0.25" stroke-width="6" fill="none" stroke-linecap="round"/>
<path d="M355 510 Q400 548 445 510" stroke="#8a3b3b" stroke-width="9" fill="none" stroke-linecap="round"/>
<g fill="#e0706b" opacity="0.25"><circle cx="318" cy="480" r="24"/><circle cx="482" cy="480" r="24"/></g>${glasses}`,
  );
}

function dogSvg(looks: PetLooks): string {
  const { fur, light, dark = fur } = looks;
  const ears = {
    floppy: `<path d="M245 300 C170 320 150 520 200 600 C240 640 285 560 290 470 Z" fill="${dark}"/><path d="M555 300 C630 320 650 520 600 600 C560 640 515 560 510 470 Z" fill="${dark}"/>`,
    long: `<path d="M250 300 C160 330 140 620 210 700 C265 740 300 600 300 470 Z" fill="${dark}"/><path d="M550 300 C640 330 660 620 590 700 C535 740 500 600 500 470 Z" fill="${dark}"/>`,
    pointy: `<path d="M250 360 L270 160 L380 290 Z" fill="${dark}"/><path d="M550 360 L530 160 L420 290 Z" fill="${dark}"/><path d="M280 320 L288 215 L350 290 Z" fill="#f2c4c4"/><path d="M520 320 L512 215 L450 290 Z" fill="#f2c4c4"/>`,
  }[looks.ears];
  return frame(
    looks.background,
    `<path d="M190 1000 C190 760 280 600 400 600 C520 600 610 760 610 1000 Z" fill="${fur}"/>
<path d="M320 1000 C320 820 360 700 400 700 C440 700 480 820 480 1000 Z" fill="${light}"/>
<ellipse cx="400" cy="440" rx="200" ry="210" fill="${fur}"/>
${looks.dark && looks.dark !== fur ? `<path d="M220 420 C230 280 320 240 400 240 C480 240 570 280 580 420 C540 360 470 350 400 350 C330 350 260 360 220 420 Z" fill="${dark}"/>` : ""}
<path d="M400 300 C380 380 370 440 370 480 L430 480 C430 440 420 380 400 300 Z" fill="${light}"/>
${ears}
<ellipse cx="400" cy="560" rx="120" ry="95" fill="${light}"/>
<g fill="#2b2b2b"><ellipse cx="325" cy="430" rx="24" ry="27"/><ellipse cx="475" cy="430" rx="24" ry="27"/></g>
<g fill="${looks.eyes}"><circle cx="325" cy="432" r="16"/><circle cx="475" cy="432" r="16"/></g>
<g fill="#111"><circle cx="325" cy="434" r="9"/><circle cx="475" cy="434" r="9"/></g>
<g fill="#fff"><circle cx="332" cy="424" r="6"/><circle cx="482" cy="424" r="6"/></g>
<path d="M360 515 C360 495 440 495 440 515 C440 540 415 555 400 555 C385 555 360 540 360 515 Z" fill="#1d1d1d"/>
<path d="M400 555 L400 585 M400 585 Q370 610 345 592 M400 585 Q430 610 455 592" stroke="#1d1d1d" stroke-width="7" fill="none" stroke-linecap="round"/>
<path d="M378 600 C378 650 422 650 422 600 Z" fill="#e57b8a"/>`,
  );
}

function catSvg(looks: PetLooks): string {
  const { fur, light, dark = fur } = looks;
  const whiskers = [-1, 1]
    .flatMap((side) =>
      [-18, 0, 18].map((dy) => `<path d="M${400 + side * 70} ${560 + dy} L${400 + side * 230} ${540 + dy * 2.2}"/>`),
    )
    .join("");
  return frame(
    looks.background,
    `<path d="M200 1000 C200 780 290 610 400 610 C510 610 600 780 600 1000 Z" fill="${fur}"/>
<path d="M330 1000 C330 830 365 720 400 720 C435 720 470 830 470 1000 Z" fill="${light}"/>
<path d="M225 380 L240 150 L390 290 Z" fill="${dark}"/><path d="M575 380 L560 150 L410 290 Z" fill="${dark}"/>
<path d="M258 330 L265 215 L350 295 Z" fill="#f2b8c0"/><path d="M542 330 L535 215 L450 295 Z" fill="#f2b8c0"/>
<ellipse cx="400" cy="470" rx="215" ry="200" fill="${fur}"/>
${looks.dark && looks.dark !== fur ? `<ellipse cx="400" cy="545" rx="115" ry="95" fill="${dark}"/>` : `<ellipse cx="400" cy="560" rx="110" ry="80" fill="${light}"/>`}
<g fill="none" stroke="${dark}" stroke-opacity="0.5" stroke-width="14" stroke-linecap="round"><path d="M400 290 L400 350"/><path d="M355 300 L365 350"/><path d="M445 300 L435 350"/></g>
<g fill="${looks.eyes}"><path d="M280 450 Q320 405 360 450 Q320 490 280 450 Z"/><path d="M440 450 Q480 405 520 450 Q480 490 440 450 Z"/></g>
<g fill="#111"><ellipse cx="320" cy="450" rx="8" ry="26"/><ellipse cx="480" cy="450" rx="8" ry="26"/></g>
<g fill="#fff"><circle cx="330" cy="440" r="5"/><circle cx="490" cy="440" r="5"/></g>
<path d="M380 525 L420 525 L400 548 Z" fill="#e58a9a"/>
<path d="M400 548 L400 565 M400 565 Q380 585 360 570 M400 565 Q420 585 440 570" stroke="#3a2a2a" stroke-width="5" fill="none" stroke-linecap="round"/>
<g stroke="#fafafa" stroke-width="4" stroke-linecap="round" opacity="0.9">${whiskers}</g>`,
  );
}

const render = (svg: string) => sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();

export const personPicture = (looks: PersonLooks) => render(personSvg(looks));

export const petPicture = (looks: PetLooks) => render(looks.kind === "dog" ? dogSvg(looks) : catSvg(looks));
