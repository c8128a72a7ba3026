/** Ids are stored; labels are translated (profile:<group>.<id>). */
export const PET_TYPES = ["dog", "cat"] as const;

export const TEMPERAMENTS = [
  "friendly",
  "shy",
  "energetic",
  "calm",
  "playful",
  "anxious",
  "goodWithKids",
  "goodWithDogs",
] as const;

export const ENERGY_LEVELS = ["low", "medium", "high"] as const;

export const BREEDS = {
  dog: [
    "labradorRetriever",
    "germanShepherd",
    "goldenRetriever",
    "frenchBulldog",
    "bulldog",
    "poodle",
    "beagle",
    "rottweiler",
    "yorkshireTerrier",
    "dachshund",
    "boxer",
    "siberianHusky",
    "borderCollie",
    "chihuahua",
    "shihTzu",
    "cockerSpaniel",
    "pug",
    "australianShepherd",
    "greatDane",
    "mixedBreed",
    "other",
  ],
  cat: [
    "persian",
    "maineCoon",
    "siamese",
    "ragdoll",
    "britishShorthair",
    "bengal",
    "sphynx",
    "abyssinian",
    "scottishFold",
    "russianBlue",
    "birman",
    "norwegianForestCat",
    "devonRex",
    "exoticShorthair",
    "burmese",
    "orientalShorthair",
    "americanShorthair",
    "mixedBreed",
    "other",
  ],
} as const satisfies Record<(typeof PET_TYPES)[number], readonly string[]>;
