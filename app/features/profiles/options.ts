/** Ids are stored; labels are translated (profile:<group>.<id>). */
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

export const HOURLY_RATE_MIN = 5;
export const HOURLY_RATE_MAX = 100;
export const HOURLY_RATE_DEFAULT = 15;
export const BIO_MAX = 500;
export const YEARS_EXPERIENCE_MAX = 50;
