/** Fixed choices of the product. Ids are stored; labels are translated (profile:<group>.<id>). */
export const EXPERIENCE = [
  "largeDogs",
  "smallDogs",
  "puppies",
  "seniorDogs",
  "cats",
  "kittens",
  "basicTraining",
  "highEnergy",
  "specialNeeds",
  "multiplePets",
] as const;

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

/** 21 dog breeds and 19 cat breeds, each list ending with Mixed Breed and Other. */
export const BREEDS = {
  dog: [
    "labradorRetriever", "germanShepherd", "goldenRetriever", "frenchBulldog", "bulldog", "poodle", "beagle",
    "rottweiler", "yorkshireTerrier", "dachshund", "boxer", "siberianHusky", "borderCollie", "chihuahua",
    "shihTzu", "cockerSpaniel", "pug", "australianShepherd", "greatDane", "mixedBreed", "other",
  ],
  cat: [
    "persian", "maineCoon", "siamese", "ragdoll", "britishShorthair", "bengal", "sphynx", "abyssinian",
    "scottishFold", "russianBlue", "birman", "norwegianForestCat", "devonRex", "exoticShorthair", "burmese",
    "orientalShorthair", "americanShorthair", "mixedBreed", "other",
  ],
} as const satisfies Record<(typeof PET_TYPES)[number], readonly string[]>;

export const HOURLY_RATE_MIN = 5;
export const HOURLY_RATE_MAX = 100;
export const HOURLY_RATE_DEFAULT = 15;
export const BIO_MAX = 500;
