import { randomUUID } from "node:crypto";
import type { EnergyLevel, PetType, Role, User } from "~db/schema";
import { ensurePlans } from "~db/plans";
import { db } from "~/platform/db.server";
import { advanceClock, now, resetClock } from "~/platform/clock.server";
import { instantAt, wallClockIn } from "~/platform/time";
import { confirmEmail, signUp, issueEmailToken } from "~/features/auth/index.server";
import { addPhotos } from "~/features/media/index.server";
import { openNotification } from "~/features/notifications/index.server";
import { createPet } from "~/features/pets/index.server";
import type { PetInput } from "~/features/pets";
import { storeAttachment, conversationWith, markConversationRead, sendMessage } from "~/features/messages/index.server";
import { paymentProvider } from "~/features/payments/index.server";
import type { CardInput } from "~/features/payments";
import { completeSitterProfile, switchActingRole, updateProfile } from "~/features/profiles/index.server";
import type { SitterSetupInput } from "~/features/profiles";
import { checkout } from "~/features/subscriptions/index.server";
import { addSlot } from "~/features/availability/index.server";
import { saveDeviceLocation, setBrowseMode, swipe } from "~/features/discovery/index.server";
import {
  transition,
  runDueBookingWork,
  payForBooking,
  requestBooking,
  leaveReview,
} from "~/features/bookings/index.server";
import type { BookingEvent } from "~/features/bookings";
import { personPicture, petPicture, type PersonLooks, type PetLooks } from "./pictures.server";

export const DEMO_PASSWORD = "happy-paws-2026";

interface DemoPerson {
  name: string;
  role: Role;
  city: string;
  postalCode: string;
  latitude: number;
  longitude: number;
  language: "es" | "pt" | "it" | "fr" | "de" | "pl" | "ru" | "en";
  timeZone: string;
  bio: string;
  looks: PersonLooks;
}

/** Real places, so distances in the deck are real ones. */
const people: DemoPerson[] = [
  {
    name: "Lucía Fernández",
    role: "owner",
    city: "Madrid",
    postalCode: "28004",
    latitude: 40.4237,
    longitude: -3.7011,
    language: "es",
    timeZone: "Europe/Madrid",
    bio: "Two rescue dogs and a very opinionated cat.",
    looks: { skin: "#e9b98f", hair: "#2e1f17", hairStyle: "long", shirt: "#c0504d", background: "#f6d8b8" },
  },
  {
    name: "Javier Ruiz",
    role: "sitter",
    city: "Madrid",
    postalCode: "28014",
    latitude: 40.4139,
    longitude: -3.6922,
    language: "es",
    timeZone: "Europe/Madrid",
    bio: "Vet nursing student; long walks in Retiro every day.",
    looks: { skin: "#d9a27a", hair: "#1c1410", hairStyle: "short", shirt: "#3d7ea6", background: "#cfe3d4" },
  },
  {
    name: "Carmen Ortega",
    role: "both",
    city: "Madrid",
    postalCode: "28010",
    latitude: 40.4332,
    longitude: -3.6934,
    language: "es",
    timeZone: "Europe/Madrid",
    bio: "I have a beagle and I look after neighbours' pets on weekends.",
    looks: { skin: "#c98f68", hair: "#4a2c1a", hairStyle: "bun", shirt: "#6a4c93", background: "#f2e2c4" },
  },
  {
    name: "Marc Puig",
    role: "sitter",
    city: "Barcelona",
    postalCode: "08012",
    latitude: 41.4036,
    longitude: 2.1567,
    language: "es",
    timeZone: "Europe/Madrid",
    bio: "Runner and dog lover; high-energy dogs welcome.",
    looks: {
      skin: "#f0c4a0",
      hair: "#6b4226",
      hairStyle: "short",
      shirt: "#e07b39",
      background: "#d5dcef",
      beard: true,
    },
  },
  {
    name: "Núria Vidal",
    role: "owner",
    city: "Barcelona",
    postalCode: "08003",
    latitude: 41.3851,
    longitude: 2.1834,
    language: "es",
    timeZone: "Europe/Madrid",
    bio: "Greyhound mum looking for gentle walkers.",
    looks: { skin: "#f3cfb1", hair: "#a0522d", hairStyle: "long", shirt: "#2e8b57", background: "#f7e1a8" },
  },
  {
    name: "Inês Carvalho",
    role: "sitter",
    city: "Lisbon",
    postalCode: "1200-195",
    latitude: 38.7139,
    longitude: -9.1394,
    language: "pt",
    timeZone: "Europe/Lisbon",
    bio: "Cat whisperer with ten years of experience.",
    looks: { skin: "#8d5a3b", hair: "#1b1b1b", hairStyle: "curly", shirt: "#f2b134", background: "#cfe1f2" },
  },
  {
    name: "Tiago Almeida",
    role: "owner",
    city: "Porto",
    postalCode: "4050-262",
    latitude: 41.1496,
    longitude: -8.6109,
    language: "pt",
    timeZone: "Europe/Lisbon",
    bio: "Working long shifts; my labrador needs company.",
    looks: {
      skin: "#c68c63",
      hair: "#2b2b2b",
      hairStyle: "short",
      shirt: "#34495e",
      background: "#e8d5f0",
      beard: true,
    },
  },
  {
    name: "Giulia Romano",
    role: "sitter",
    city: "Rome",
    postalCode: "00184",
    latitude: 41.8955,
    longitude: 12.4823,
    language: "it",
    timeZone: "Europe/Rome",
    bio: "Trained in canine first aid. Puppies are my speciality.",
    looks: {
      skin: "#eab894",
      hair: "#3b2418",
      hairStyle: "long",
      shirt: "#d35d6e",
      background: "#d8efe0",
      glasses: true,
    },
  },
  {
    name: "Marco Bianchi",
    role: "owner",
    city: "Milan",
    postalCode: "20121",
    latitude: 45.4722,
    longitude: 9.1869,
    language: "it",
    timeZone: "Europe/Rome",
    bio: "Two kittens and a busy travel schedule.",
    looks: {
      skin: "#e3ad86",
      hair: "#5a5a5a",
      hairStyle: "bald",
      shirt: "#1f6f8b",
      background: "#f6e0c8",
      beard: true,
      glasses: true,
    },
  },
  {
    name: "Élodie Martin",
    role: "both",
    city: "Paris",
    postalCode: "75011",
    latitude: 48.8589,
    longitude: 2.3799,
    language: "fr",
    timeZone: "Europe/Paris",
    bio: "Owner of a senior poodle; I sit small dogs nearby.",
    looks: { skin: "#f4d3bb", hair: "#d8b25a", hairStyle: "bun", shirt: "#5b8c5a", background: "#f2d0d8" },
  },
  {
    name: "Hugo Lefèvre",
    role: "sitter",
    city: "Lyon",
    postalCode: "69002",
    latitude: 45.7578,
    longitude: 4.832,
    language: "fr",
    timeZone: "Europe/Paris",
    bio: "Former shelter volunteer, calm with anxious dogs.",
    looks: { skin: "#5c3a24", hair: "#111111", hairStyle: "short", shirt: "#b5651d", background: "#dfe8c9" },
  },
  {
    name: "Lena Schmidt",
    role: "sitter",
    city: "Berlin",
    postalCode: "10115",
    latitude: 52.5321,
    longitude: 13.3849,
    language: "de",
    timeZone: "Europe/Berlin",
    bio: "Dog trainer; basic obedience included with every walk.",
    looks: { skin: "#f6d5bf", hair: "#e2c275", hairStyle: "long", shirt: "#3a6ea5", background: "#fbe3cf" },
  },
  {
    name: "Jonas Weber",
    role: "owner",
    city: "Munich",
    postalCode: "80331",
    latitude: 48.1374,
    longitude: 11.5755,
    language: "de",
    timeZone: "Europe/Berlin",
    bio: "Our Bernese mountain dog loves the Isar.",
    looks: {
      skin: "#efc2a0",
      hair: "#8b5a2b",
      hairStyle: "short",
      shirt: "#7a8b3a",
      background: "#d3e4f5",
      glasses: true,
    },
  },
  {
    name: "Zofia Kowalska",
    role: "sitter",
    city: "Warsaw",
    postalCode: "00-001",
    latitude: 52.2297,
    longitude: 21.0122,
    language: "pl",
    timeZone: "Europe/Warsaw",
    bio: "Home all day, garden with a fence, cats and dogs.",
    looks: { skin: "#f1cbb0", hair: "#b5522b", hairStyle: "curly", shirt: "#4b7f52", background: "#f3e6c0" },
  },
  {
    name: "Piotr Nowak",
    role: "owner",
    city: "Kraków",
    postalCode: "31-001",
    latitude: 50.0614,
    longitude: 19.9366,
    language: "pl",
    timeZone: "Europe/Warsaw",
    bio: "Husky owner; she needs a lot of exercise.",
    looks: { skin: "#edbf9c", hair: "#c9a66b", hairStyle: "short", shirt: "#8e3b46", background: "#dceaf0" },
  },
  {
    name: "Anna Ivanova",
    role: "both",
    city: "Riga",
    postalCode: "LV-1050",
    latitude: 56.9496,
    longitude: 24.1052,
    language: "ru",
    timeZone: "Europe/Riga",
    bio: "I have two cats and I care for pets while their owners travel.",
    looks: {
      skin: "#f5d6c2",
      hair: "#6e4a2e",
      hairStyle: "long",
      shirt: "#9b59b6",
      background: "#e0f0e8",
      glasses: true,
    },
  },
  {
    name: "Emma Wilson",
    role: "owner",
    city: "Dublin",
    postalCode: "D02",
    latitude: 53.3498,
    longitude: -6.2603,
    language: "en",
    timeZone: "Europe/Dublin",
    bio: "First-time dog owner with a very curious spaniel.",
    looks: { skin: "#a86b48", hair: "#2a1b12", hairStyle: "bun", shirt: "#e9a03b", background: "#d6e6f7" },
  },
  {
    name: "Oliver Brown",
    role: "sitter",
    city: "Dublin",
    postalCode: "D08",
    latitude: 53.3419,
    longitude: -6.2867,
    language: "en",
    timeZone: "Europe/Dublin",
    bio: "Retired teacher with time, patience and a big garden.",
    looks: {
      skin: "#f2cfb6",
      hair: "#d9d9d9",
      hairStyle: "short",
      shirt: "#2f5d62",
      background: "#f0e4d4",
      beard: true,
      glasses: true,
    },
  },
];

interface DemoPet {
  owner: string;
  name: string;
  petType: PetType;
  age: string;
  breed: string;
  temperament: PetInput["temperament"];
  energyLevel: EnergyLevel;
  notes: string;
  looks: Omit<PetLooks, "kind">;
}

const pets: DemoPet[] = [
  {
    owner: "Lucía Fernández",
    name: "Luna",
    petType: "dog",
    age: "4 years",
    breed: "labradorRetriever",
    temperament: ["friendly", "playful"],
    energyLevel: "high",
    notes: "Loves the park and every person in it.",
    looks: { fur: "#d9a55b", light: "#f3dcb2", ears: "floppy", eyes: "#6b3f1d", background: "#bfe0c0" },
  },
  {
    owner: "Lucía Fernández",
    name: "Michi",
    petType: "cat",
    age: "7 years",
    breed: "siamese",
    temperament: ["calm"],
    energyLevel: "low",
    notes: "Needs his food at 8 sharp.",
    looks: {
      fur: "#f1e6d2",
      light: "#fbf5ea",
      dark: "#5a4030",
      ears: "pointy",
      eyes: "#5aa0e0",
      background: "#f2d0d8",
    },
  },
  {
    owner: "Carmen Ortega",
    name: "Toby",
    petType: "dog",
    age: "3 years",
    breed: "beagle",
    temperament: ["energetic", "goodWithKids"],
    energyLevel: "high",
    notes: "Follows his nose; keep him on the lead.",
    looks: { fur: "#c98a3e", light: "#f7f2ea", dark: "#3b2a1e", ears: "long", eyes: "#5a3416", background: "#f7e1a8" },
  },
  {
    owner: "Núria Vidal",
    name: "Greta",
    petType: "dog",
    age: "6 years",
    breed: "other",
    temperament: ["shy", "calm"],
    energyLevel: "medium",
    notes: "Retired racing greyhound, gentle and quiet.",
    looks: { fur: "#9a9ca3", light: "#dcdde0", ears: "floppy", eyes: "#4a3a2a", background: "#e6d3ef" },
  },
  {
    owner: "Tiago Almeida",
    name: "Bolt",
    petType: "dog",
    age: "2 years",
    breed: "labradorRetriever",
    temperament: ["playful", "goodWithDogs"],
    energyLevel: "high",
    notes: "Still a puppy at heart.",
    looks: { fur: "#2a2522", light: "#4a423d", ears: "floppy", eyes: "#8a5a2b", background: "#f5d7a1" },
  },
  {
    owner: "Marco Bianchi",
    name: "Pepe",
    petType: "cat",
    age: "8 months",
    breed: "maineCoon",
    temperament: ["playful"],
    energyLevel: "high",
    notes: "Two kittens: Pepe and Nina.",
    looks: {
      fur: "#a0714a",
      light: "#e8d2b5",
      dark: "#5e3d24",
      ears: "pointy",
      eyes: "#c9a227",
      background: "#d0e6f5",
    },
  },
  {
    owner: "Élodie Martin",
    name: "Coco",
    petType: "dog",
    age: "12 years",
    breed: "poodle",
    temperament: ["calm", "friendly"],
    energyLevel: "low",
    notes: "Senior lady, short walks only.",
    looks: { fur: "#f3ede4", light: "#fffaf3", ears: "long", eyes: "#3a2a20", background: "#f4cccc" },
  },
  {
    owner: "Jonas Weber",
    name: "Bruno",
    petType: "dog",
    age: "5 years",
    breed: "other",
    temperament: ["friendly", "goodWithKids"],
    energyLevel: "medium",
    notes: "Bernese mountain dog, hates the heat.",
    looks: {
      fur: "#b5652b",
      light: "#fbf7f0",
      dark: "#1e1a18",
      ears: "floppy",
      eyes: "#5a3416",
      background: "#cde8d5",
    },
  },
  {
    owner: "Piotr Nowak",
    name: "Nika",
    petType: "dog",
    age: "3 years",
    breed: "siberianHusky",
    temperament: ["energetic"],
    energyLevel: "high",
    notes: "Escape artist: check the gate twice.",
    looks: {
      fur: "#8d8f96",
      light: "#f4f4f4",
      dark: "#4a4c52",
      ears: "pointy",
      eyes: "#6fb4e8",
      background: "#cfe1f2",
    },
  },
  {
    owner: "Anna Ivanova",
    name: "Barsik",
    petType: "cat",
    age: "5 years",
    breed: "russianBlue",
    temperament: ["shy"],
    energyLevel: "low",
    notes: "Hides under the bed for the first hour.",
    looks: { fur: "#7d8a99", light: "#a3afbd", ears: "pointy", eyes: "#7cc47a", background: "#efe3c5" },
  },
  {
    owner: "Emma Wilson",
    name: "Biscuit",
    petType: "dog",
    age: "1 year",
    breed: "cockerSpaniel",
    temperament: ["playful", "anxious"],
    energyLevel: "high",
    notes: "Nervous around bikes.",
    looks: { fur: "#c9863c", light: "#f0d2a2", ears: "long", eyes: "#5a3416", background: "#f9dcc4" },
  },
];

/**
 * The services a demo sitter offers and their prices in euros, the most pets at once and the price per
 * extra pet. By the hour ("hourly") at the sitter's rate, unless left out: every sitter the demo books
 * offers it (its bookings are by the hour); Élodie offers only stays.
 */
type DemoOffer = Pick<
  SitterSetupInput,
  | "services"
  | "walkPrice"
  | "walkMinutes"
  | "dropInPrice"
  | "dayCarePrice"
  | "houseSittingPrice"
  | "boardingPrice"
  | "maxPets"
  | "extraPetPrice"
>;

/** Sitter details: rate in euros, experience chips, pets cared for, the services offered. */
const sitterDetails: Record<
  string,
  { rate: number; experience: SitterSetupInput["experience"]; caresFor: PetType[]; offer: DemoOffer }
> = {
  "Javier Ruiz": {
    rate: 14,
    experience: ["largeDogs", "puppies", "specialNeeds"],
    caresFor: ["dog"],
    offer: {
      services: ["hourly", "walk", "boarding"],
      walkPrice: 12,
      walkMinutes: "60",
      boardingPrice: 32,
      maxPets: 3,
      extraPetPrice: 6,
    },
  },
  "Carmen Ortega": {
    rate: 12,
    experience: ["smallDogs", "cats"],
    caresFor: ["dog", "cat"],
    offer: { services: ["hourly", "drop_in"], dropInPrice: 10, maxPets: 2, extraPetPrice: 3 },
  },
  "Marc Puig": {
    rate: 18,
    experience: ["highEnergy", "largeDogs", "basicTraining"],
    caresFor: ["dog"],
    offer: {
      services: ["hourly", "walk", "day_care"],
      walkPrice: 15,
      walkMinutes: "60",
      dayCarePrice: 35,
      maxPets: 4,
      extraPetPrice: 8,
    },
  },
  "Inês Carvalho": {
    rate: 15,
    experience: ["cats", "kittens", "seniorDogs"],
    caresFor: ["cat", "dog"],
    offer: {
      services: ["hourly", "drop_in", "house_sitting"],
      dropInPrice: 12,
      houseSittingPrice: 45,
      maxPets: 2,
      extraPetPrice: 5,
    },
  },
  "Giulia Romano": {
    rate: 16,
    experience: ["puppies", "basicTraining", "multiplePets"],
    caresFor: ["dog"],
    offer: {
      services: ["hourly", "boarding", "day_care"],
      boardingPrice: 28,
      dayCarePrice: 24,
      maxPets: 4,
      extraPetPrice: 7,
    },
  },
  "Élodie Martin": {
    rate: 13,
    experience: ["smallDogs", "seniorDogs"],
    caresFor: ["dog"],
    offer: { services: ["boarding", "day_care"], boardingPrice: 25, dayCarePrice: 20, maxPets: 3, extraPetPrice: 5 },
  },
  "Hugo Lefèvre": {
    rate: 15,
    experience: ["specialNeeds", "largeDogs"],
    caresFor: ["dog", "cat"],
    offer: { services: ["hourly", "house_sitting"], houseSittingPrice: 50, maxPets: 2, extraPetPrice: 5 },
  },
  "Lena Schmidt": {
    rate: 22,
    experience: ["basicTraining", "highEnergy", "puppies"],
    caresFor: ["dog"],
    offer: { services: ["hourly", "walk"], walkPrice: 18, walkMinutes: "60", maxPets: 2, extraPetPrice: 6 },
  },
  "Zofia Kowalska": {
    rate: 11,
    experience: ["cats", "multiplePets", "largeDogs"],
    caresFor: ["dog", "cat"],
    offer: {
      services: ["hourly", "drop_in", "boarding"],
      dropInPrice: 9,
      boardingPrice: 22,
      maxPets: 5,
      extraPetPrice: 4,
    },
  },
  "Anna Ivanova": {
    rate: 12,
    experience: ["cats", "kittens"],
    caresFor: ["cat"],
    offer: { services: ["hourly", "drop_in"], dropInPrice: 11, maxPets: 2, extraPetPrice: 4 },
  },
  "Oliver Brown": {
    rate: 17,
    experience: ["seniorDogs", "largeDogs", "multiplePets"],
    caresFor: ["dog"],
    offer: {
      services: ["hourly", "walk", "house_sitting"],
      walkPrice: 14,
      walkMinutes: "30",
      houseSittingPrice: 55,
      maxPets: 3,
      extraPetPrice: 5,
    },
  },
};

type Line = [from: "owner" | "sitter", text: string, photoOf?: string];

const matches: { owner: string; sitter: string; pet: string; daysAgo: number; first: Line[]; recent: Line[] }[] = [
  {
    owner: "Lucía Fernández",
    sitter: "Javier Ruiz",
    pet: "Luna",
    daysAgo: 30,
    first: [
      ["owner", "Hi Javier! Luna would love a long walk in Retiro while I'm at work."],
      ["sitter", "Hi Lucía, happy to! I'm there every morning anyway."],
    ],
    recent: [
      ["owner", "Luna still runs to the door every time someone says Retiro 😄"],
      ["sitter", "Ha! Tell her I say hi. Same time next month?"],
    ],
  },
  {
    owner: "Carmen Ortega",
    sitter: "Javier Ruiz",
    pet: "Toby",
    daysAgo: 29,
    first: [
      ["owner", "Hola Javier, Toby pulls on the lead a lot, is that OK?"],
      ["sitter", "No problem, I'll bring the harness that helps."],
    ],
    recent: [
      ["sitter", "How is Toby's paw? He was limping a little at the end of our walk."],
      ["owner", "Much better, thanks for telling me. The vet says it was nothing."],
    ],
  },
  {
    owner: "Núria Vidal",
    sitter: "Marc Puig",
    pet: "Greta",
    daysAgo: 28,
    first: [
      ["owner", "Greta is a retired greyhound: calm walks only, please."],
      ["sitter", "Understood. I'll keep the running for my other dogs."],
    ],
    recent: [
      ["owner", "Sorry again about cancelling, my sister is in town after all."],
      ["sitter", "No worries at all, see you and Greta another time!"],
    ],
  },
  {
    owner: "Tiago Almeida",
    sitter: "Inês Carvalho",
    pet: "Bolt",
    daysAgo: 27,
    first: [
      ["owner", "Olá Inês! I work long shifts, Bolt gets lonely."],
      ["sitter", "Olá Tiago, I'd love to keep him company."],
    ],
    recent: [
      ["sitter", "All set for next week. Does Bolt still eat at 7?"],
      ["owner", "Yes, 7 sharp, and one treat after the walk. Obrigado!"],
    ],
  },
  {
    owner: "Marco Bianchi",
    sitter: "Giulia Romano",
    pet: "Pepe",
    daysAgo: 26,
    first: [
      ["owner", "Ciao Giulia, I travel a lot. Can you look after two kittens?"],
      ["sitter", "Certo! Kittens are the best."],
    ],
    recent: [
      ["owner", "Pepe learned to open the cupboard. Be warned for next time!"],
      ["sitter", "Ahah, I'll bring child locks 😅"],
    ],
  },
  {
    owner: "Jonas Weber",
    sitter: "Lena Schmidt",
    pet: "Bruno",
    daysAgo: 25,
    first: [
      ["owner", "Hallo Lena, Bruno could use some training on recall."],
      ["sitter", "Perfect, that's what I do best."],
    ],
    recent: [
      ["sitter", "I got your request for Bruno. Can we make it a bit earlier, before the heat?"],
      ["owner", "Sure, 10 is the earliest I can drop him off. Is that OK?"],
    ],
  },
  {
    owner: "Piotr Nowak",
    sitter: "Zofia Kowalska",
    pet: "Nika",
    daysAgo: 24,
    first: [
      ["owner", "Cześć Zofia! Nika needs a lot of exercise, is your garden fenced?"],
      ["sitter", "Yes, all around. She'll have fun."],
    ],
    recent: [
      ["sitter", "Sorry I had to decline, I'm away that week. The week after is free!"],
      ["owner", "No problem, I'll book the week after then."],
    ],
  },
  {
    owner: "Élodie Martin",
    sitter: "Hugo Lefèvre",
    pet: "Coco",
    daysAgo: 23,
    first: [
      ["owner", "Bonjour Hugo, Coco is 12 and walks slowly."],
      ["sitter", "Bonjour Élodie, slow walks are my favourite."],
    ],
    recent: [
      ["sitter", "Coco left her blanket in my car, I'll drop it by tomorrow."],
      ["owner", "Merci Hugo, she was looking for it all evening!"],
    ],
  },
  {
    owner: "Emma Wilson",
    sitter: "Oliver Brown",
    pet: "Biscuit",
    daysAgo: 12,
    first: [
      ["owner", "Hi Oliver! Biscuit is my first dog and he's scared of bikes."],
      ["sitter", "We'll take the quiet paths through the garden then."],
    ],
    recent: [
      ["sitter", "Biscuit is having a great time, look at him!", "Biscuit"],
      ["sitter", "No bikes so far 🐾"],
    ],
  },
  {
    owner: "Anna Ivanova",
    sitter: "Inês Carvalho",
    pet: "Barsik",
    daysAgo: 20,
    first: [
      ["owner", "Привет Inês! Barsik is shy, he hides at first."],
      ["sitter", "Cats always come round in the end. I'll be patient."],
    ],
    recent: [
      ["sitter", "Barsik came out after 20 minutes and sat on my lap!", "Barsik"],
      ["owner", "He never does that with guests! Thank you 💙"],
    ],
  },
  {
    owner: "Lucía Fernández",
    sitter: "Carmen Ortega",
    pet: "Michi",
    daysAgo: 10,
    first: [
      ["owner", "Carmen, could you feed Michi while I'm away? He eats at 8 sharp."],
      ["sitter", "Of course, we're neighbours! 8 sharp it is."],
    ],
    recent: [
      ["sitter", "Looking forward to our day with Michi."],
      ["owner", "He's already pretending he doesn't care 😹"],
    ],
  },
  {
    owner: "Marco Bianchi",
    sitter: "Anna Ivanova",
    pet: "Pepe",
    daysAgo: 15,
    first: [
      ["owner", "Hi Anna, do you also do video check-ins with kittens?"],
      ["sitter", "Yes, I send photos and videos every visit."],
    ],
    recent: [
      ["sitter", "Pepe says hello from the windowsill.", "Pepe"],
      ["owner", "So cute! Thank you, Anna."],
    ],
  },
];

type Outcome =
  | "requested"
  | "confirmed"
  | "cancelledByOwner"
  | "declined"
  | "inProgress"
  | "completed"
  | "released"
  | "autoReleased";

const bookings: {
  owner: string;
  sitter: string;
  pet: string;
  daysAhead: number;
  hours: number;
  requestedDaysBefore: number;
  outcome: Outcome;
  notes?: string;
  review?: { ownerStars: number; ownerSays: string; sitterStars: number; sitterSays: string };
}[] = [
  {
    owner: "Lucía Fernández",
    sitter: "Javier Ruiz",
    pet: "Luna",
    daysAhead: -12,
    hours: 2,
    requestedDaysBefore: 3,
    outcome: "released",
    review: {
      ownerStars: 5,
      ownerSays: "Luna came home tired and happy. Javier sent photos from Retiro.",
      sitterStars: 5,
      sitterSays: "Luna is a joy, and Lucía left clear instructions.",
    },
  },
  {
    owner: "Carmen Ortega",
    sitter: "Javier Ruiz",
    pet: "Toby",
    daysAhead: -20,
    hours: 2,
    requestedDaysBefore: 2,
    outcome: "autoReleased",
    review: {
      ownerStars: 4,
      ownerSays: "Punctual and kind with Toby; a bit short on updates.",
      sitterStars: 5,
      sitterSays: "Toby pulls a lot but he's a sweetheart.",
    },
  },
  {
    owner: "Núria Vidal",
    sitter: "Marc Puig",
    pet: "Greta",
    daysAhead: -9,
    hours: 2,
    requestedDaysBefore: 4,
    outcome: "released",
    review: {
      ownerStars: 5,
      ownerSays: "Marc understood that Greta needs calm walks. Perfect.",
      sitterStars: 5,
      sitterSays: "Greta is the gentlest greyhound.",
    },
  },
  {
    owner: "Tiago Almeida",
    sitter: "Inês Carvalho",
    pet: "Bolt",
    daysAhead: -15,
    hours: 2,
    requestedDaysBefore: 3,
    outcome: "autoReleased",
    review: {
      ownerStars: 4,
      ownerSays: "Bolt loved her. Booking was easy.",
      sitterStars: 4,
      sitterSays: "Energetic pup; bring treats.",
    },
  },
  {
    owner: "Marco Bianchi",
    sitter: "Giulia Romano",
    pet: "Pepe",
    daysAhead: -7,
    hours: 2,
    requestedDaysBefore: 5,
    outcome: "released",
    review: {
      ownerStars: 5,
      ownerSays: "Giulia is wonderful with kittens.",
      sitterStars: 5,
      sitterSays: "Pepe and Nina were angels.",
    },
  },
  {
    owner: "Jonas Weber",
    sitter: "Lena Schmidt",
    pet: "Bruno",
    daysAhead: -10,
    hours: 2,
    requestedDaysBefore: 3,
    outcome: "released",
    review: {
      ownerStars: 5,
      ownerSays: "Lena even worked on Bruno's recall. Recommended!",
      sitterStars: 5,
      sitterSays: "Bruno is a gentle giant.",
    },
  },
  {
    owner: "Piotr Nowak",
    sitter: "Zofia Kowalska",
    pet: "Nika",
    daysAhead: -18,
    hours: 2,
    requestedDaysBefore: 2,
    outcome: "autoReleased",
    review: {
      ownerStars: 3,
      ownerSays: "Nika escaped once in the garden, but Zofia handled it well.",
      sitterStars: 4,
      sitterSays: "Nika is clever: the gate needs a lock.",
    },
  },
  {
    owner: "Élodie Martin",
    sitter: "Hugo Lefèvre",
    pet: "Coco",
    daysAhead: -5,
    hours: 2,
    requestedDaysBefore: 3,
    outcome: "released",
    review: {
      ownerStars: 5,
      ownerSays: "Hugo was so patient with my old Coco.",
      sitterStars: 5,
      sitterSays: "Coco sets the pace, and that's fine.",
    },
  },
  {
    owner: "Anna Ivanova",
    sitter: "Inês Carvalho",
    pet: "Barsik",
    daysAhead: -1,
    hours: 3,
    requestedDaysBefore: 4,
    outcome: "completed",
    review: {
      ownerStars: 5,
      ownerSays: "Barsik trusted Inês within minutes. Unheard of!",
      sitterStars: 5,
      sitterSays: "A shy gentleman with the softest fur.",
    },
  },
  {
    owner: "Emma Wilson",
    sitter: "Oliver Brown",
    pet: "Biscuit",
    daysAhead: 0,
    hours: 2,
    requestedDaysBefore: 2,
    outcome: "inProgress",
    notes: "Please avoid the cycle path by the canal.",
  },
  // The one under way when Dublin is near midnight.
  {
    owner: "Marco Bianchi",
    sitter: "Anna Ivanova",
    pet: "Pepe",
    daysAhead: 0,
    hours: 2,
    requestedDaysBefore: 2,
    outcome: "inProgress",
  },
  {
    owner: "Lucía Fernández",
    sitter: "Carmen Ortega",
    pet: "Michi",
    daysAhead: 3,
    hours: 3,
    requestedDaysBefore: 5,
    outcome: "confirmed",
    notes: "Food at 8 sharp, the bag is in the kitchen.",
  },
  {
    owner: "Tiago Almeida",
    sitter: "Inês Carvalho",
    pet: "Bolt",
    daysAhead: 9,
    hours: 2,
    requestedDaysBefore: 11,
    outcome: "confirmed",
  },
  {
    owner: "Emma Wilson",
    sitter: "Oliver Brown",
    pet: "Biscuit",
    daysAhead: 2,
    hours: 2,
    requestedDaysBefore: 2.2,
    outcome: "requested",
  },
  {
    owner: "Jonas Weber",
    sitter: "Lena Schmidt",
    pet: "Bruno",
    daysAhead: 5,
    hours: 3,
    requestedDaysBefore: 6,
    outcome: "requested",
    notes: "Recall practice again, please!",
  },
  {
    owner: "Núria Vidal",
    sitter: "Marc Puig",
    pet: "Greta",
    daysAhead: 4,
    hours: 2,
    requestedDaysBefore: 6,
    outcome: "cancelledByOwner",
  },
  {
    owner: "Piotr Nowak",
    sitter: "Zofia Kowalska",
    pet: "Nika",
    daysAhead: 6,
    hours: 2,
    requestedDaysBefore: 8,
    outcome: "declined",
  },
];

const admirers: { sitter: string; owner: string; pet: string }[] = [
  { sitter: "Marc Puig", owner: "Lucía Fernández", pet: "Luna" },
  { sitter: "Hugo Lefèvre", owner: "Lucía Fernández", pet: "Luna" },
  { sitter: "Lena Schmidt", owner: "Lucía Fernández", pet: "Michi" },
  { sitter: "Oliver Brown", owner: "Lucía Fernández", pet: "Luna" },
];

const PREMIUM_MEMBER = "Lucía Fernández";
const AVAILABILITY_DAYS = 14;
const UNREAD_NOTIFICATIONS = 3;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const FIRST_DAY = -40;

export interface DemoLogin {
  email: string;
  password: string;
  role: Role;
  name: string;
}

function demoEmail(name: string, role: Role): string {
  const first = name
    .split(" ")[0]!
    .normalize("NFD")
    .replace(/[^a-zA-Z]/g, "")
    .toLowerCase();
  return `${first}.${role}@demo.trustedsitters.app`;
}

export function printDemoLogins(logins: DemoLogin[]) {
  console.log("\nDemo accounts (password for all of them below):");
  for (const login of logins) console.log(`  ${login.role.padEnd(6)} ${login.email.padEnd(34)} ${login.name}`);
  console.log(`  password: ${logins[0]?.password ?? ""}\n`);
}

export async function seedDemoData({ onlyIfEmpty = false } = {}): Promise<DemoLogin[] | null> {
  const anyone = db.selectFrom("users").select("id").limit(1);
  const first = people[0]!;
  if (await (onlyIfEmpty ? anyone : anyone.where("email", "=", demoEmail(first.name, first.role))).executeTakeFirst())
    return null;
  // The premium plans are written by migration 0007 too; repeating it keeps them in step with db/plans.ts.
  await ensurePlans(db);
  try {
    await new Story(now()).tell();
  } finally {
    resetClock();
  }
  return people.map((person) => ({
    email: demoEmail(person.name, person.role),
    password: DEMO_PASSWORD,
    role: person.role,
    name: person.name,
  }));
}

type Step = { at: number; order: number; run: () => Promise<void> };
type Booking = (typeof bookings)[number];

class Story {
  private readonly steps: Step[] = [];
  private readonly users = new Map<string, string>();
  private readonly petIds = new Map<string, string>();
  private readonly card: CardInput;

  constructor(private readonly today: Date) {
    this.card = {
      kind: "digits",
      number: "4242 4242 4242 4242",
      expMonth: 12,
      expYear: today.getUTCFullYear() + 3,
      cvc: "123",
      name: "",
    };
  }

  async tell() {
    people.forEach((person, index) => this.at(FIRST_DAY * DAY + index * 20 * MINUTE, () => this.join(person)));
    const live = this.publishAvailability();
    for (const match of matches) this.match(match, match.owner === live.owner && match.sitter === live.sitter);
    for (const { sitter, owner, pet } of admirers) this.at(-6 * DAY, () => this.like(sitter, owner, pet));
    this.at(-8 * DAY, () => this.subscribe(PREMIUM_MEMBER));
    for (const booking of bookings) if (booking.outcome !== "inProgress" || booking === live) this.book(booking);
    for (let at = FIRST_DAY * DAY; at < 0; at += 2 * HOUR) this.at(at, () => this.runScheduler(), 1);
    this.at(-MINUTE, () => this.runScheduler(), 1);
    this.at(-MINUTE, () => this.readOlderNotifications(), 2);

    this.steps.sort((a, b) => a.at - b.at || a.order - b.order);
    for (const step of this.steps) {
      advanceClock(this.today.getTime() + step.at - now().getTime());
      await step.run();
    }
  }

  private at(offset: number, run: () => Promise<void>, order = 0) {
    this.steps.push({ at: offset, order, run });
  }

  private id(name: string): string {
    const id = this.users.get(name);
    if (!id) throw new Error(`Demo person ${name} is not there yet`);
    return id;
  }

  private pet(owner: string, name: string): string {
    return this.petIds.get(`${owner}/${name}`)!;
  }

  private user(name: string): Promise<User> {
    return db.selectFrom("users").selectAll().where("id", "=", this.id(name)).executeTakeFirstOrThrow();
  }

  private async runScheduler() {
    await runDueBookingWork();
  }

  private async join(person: DemoPerson) {
    const email = demoEmail(person.name, person.role);
    const signup = {
      role: person.role === "sitter" ? ("sitter" as const) : ("owner" as const),
      name: person.name,
      city: person.city,
      postalCode: person.postalCode,
      phone: "+34 600 000 000",
      email,
      password: DEMO_PASSWORD,
    };
    const signedUp = await signUp(signup, person.language);
    if (signedUp.status !== "created") throw new Error(`Demo person ${email} exists already`);
    const confirmed = await confirmEmail(await issueEmailToken(signedUp.user.id, "confirm"));
    if (confirmed.status !== "confirmed") throw new Error(`Demo person ${email} could not confirm`);
    const user = confirmed.user;
    this.users.set(person.name, user.id);
    await updateProfile(user.id, {
      name: person.name,
      phone: user.phone,
      city: person.city,
      postalCode: person.postalCode,
      bio: person.bio,
      timeZone: person.timeZone,
    });
    await saveDeviceLocation(user.id, person);
    await setBrowseMode(user.id, "global");
    for (const pet of pets.filter((pet) => pet.owner === person.name)) {
      const input = {
        petType: pet.petType,
        name: pet.name,
        age: pet.age,
        breed: pet.breed,
        notes: pet.notes,
        temperament: pet.temperament,
        energyLevel: pet.energyLevel,
        specialNeeds: "",
      };
      const created = await createPet(user.id, input, [await petPicture({ kind: pet.petType, ...pet.looks })]);
      if (created.status !== "created") throw new Error(`Demo pet ${pet.name}: ${created.problem}`);
      this.petIds.set(`${person.name}/${pet.name}`, created.petId);
    }
    const portrait = await personPicture(person.looks);
    const details = sitterDetails[person.name];
    if (details) {
      await completeSitterProfile(
        user,
        {
          bio: person.bio,
          hourlyRate: details.rate,
          experience: details.experience,
          caresFor: details.caresFor,
          servicesShown: "1",
          ...details.offer,
        },
        [portrait],
      );
      if (person.role === "both") await switchActingRole({ id: user.id, role: "both" }, "owner");
    } else {
      await addPhotos({ userId: user.id, petId: null }, [portrait]);
    }
  }

  /** Owners like sitters; sitters like pets (a like for their owner). */
  private async like(from: string, to: string, pet: string | null) {
    const result = await swipe(await this.user(from), { userId: this.id(to), petId: pet && this.pet(to, pet) }, "like");
    if (result.status !== "recorded") throw new Error(`Demo like from ${from}: ${result.status}`);
  }

  private match(match: (typeof matches)[number], underWay: boolean) {
    const start = -match.daysAgo * DAY;
    this.at(start, () => this.like(match.owner, match.sitter, null));
    this.at(start + 3 * HOUR, () => this.like(match.sitter, match.owner, match.pet));
    const say = (lines: Line[], from: number, gap: number) =>
      lines.forEach(([who, text, photoOf], index) =>
        this.at(from + index * gap, () => this.say(match, who, text, photoOf)),
      );
    say(match.first, start + 4 * HOUR, 2 * HOUR);
    say(
      match.recent,
      underWay ? -40 * MINUTE : -(matches.indexOf(match) + 2) * HOUR,
      underWay ? 15 * MINUTE : 25 * MINUTE,
    );
  }

  private async say(pair: { owner: string; sitter: string }, from: "owner" | "sitter", text: string, photoOf?: string) {
    const [sender, receiver] = from === "owner" ? [pair.owner, pair.sitter] : [pair.sitter, pair.owner];
    const conversationId = await conversationWith(this.id(sender), this.id(receiver));
    if (!conversationId) throw new Error(`${sender} may not write to ${receiver}`);
    await markConversationRead(this.id(sender), conversationId);
    let media = null;
    if (photoOf) {
      const pet = pets.find((pet) => pet.name === photoOf)!;
      const stored = await storeAttachment(
        await petPicture({ kind: pet.petType, ...pet.looks, background: "#9ccf8f" }),
        "image/jpeg",
      );
      if ("refusal" in stored) throw new Error(stored.refusal);
      media = stored;
    }
    const sent = await sendMessage(this.id(sender), conversationId, text, media, { image: "📷", video: "🎥" });
    if (sent.status !== "sent") throw new Error(`Message from ${sender}: ${sent.status}`);
  }

  private async subscribe(name: string) {
    const result = await checkout(
      await this.user(name),
      "monthly",
      { ...this.card, name },
      randomUUID(),
      paymentProvider("test"),
    );
    if (result.status !== "active") throw new Error(`Demo checkout: ${result.status}`);
  }

  /** A booking cannot pass midnight, so the one under way now is that of the sitter not near midnight. */
  private publishAvailability(): Booking {
    const live = bookings.find((booking) => booking.outcome === "inProgress" && this.liveStartHour(booking) !== null)!;
    const liveZone = this.zoneOf(live.sitter);
    const publish = async (name: string, zone: string) => {
      for (let ahead = 1; ahead <= AVAILABILITY_DAYS; ahead += 1) {
        const day = wallClockIn(zone, new Date(now().getTime() + ahead * DAY)).day;
        if (name === live.sitter && day === wallClockIn(zone, this.today).day) continue;
        await addSlot(this.id(name), zone, { day, startTime: "09:00", endTime: "17:00" });
      }
    };
    for (const name of Object.keys(sitterDetails)) {
      const zone = this.zoneOf(name);
      const spread = people.findIndex((person) => person.name === name) % 3;
      for (let week = FIRST_DAY; week < 0; week += 7)
        this.at(Math.min((week + 1 + spread) * DAY, -3 * DAY), () => publish(name, zone));
      this.at(-2 * HOUR, () => publish(name, zone));
    }
    const hour = this.liveStartHour(live)!;
    const time = (value: number) => `${String(value).padStart(2, "0")}:00`;
    this.at(-3 * DAY, async () => {
      await addSlot(this.id(live.sitter), liveZone, {
        day: wallClockIn(liveZone, this.today).day,
        startTime: time(Math.max(0, hour - 2)),
        endTime: time(Math.min(23, hour + 4)),
      });
    });
    return live;
  }

  private zoneOf(name: string): string {
    return people.find((person) => person.name === name)!.timeZone;
  }

  private liveStartHour(booking: Booking): number | null {
    const hour = Number(wallClockIn(this.zoneOf(booking.sitter), this.today).time.slice(0, 2)) - 1;
    return hour >= 0 && hour + booking.hours <= 23 ? hour : null;
  }

  private book(booking: Booking) {
    const zone = this.zoneOf(booking.sitter);
    const startTime =
      booking.outcome === "inProgress" ? `${String(this.liveStartHour(booking)).padStart(2, "0")}:00` : "10:00";
    const day = wallClockIn(zone, new Date(this.today.getTime() + booking.daysAhead * DAY)).day;
    const startsAt = instantAt(zone, day, startTime).getTime() - this.today.getTime();
    const endsAt = startsAt + booking.hours * HOUR;
    const requestedAt = startsAt - booking.requestedDaysBefore * DAY;
    const answeredAt = requestedAt + Math.min(3 * HOUR, (startsAt - requestedAt) / 2);
    const id = randomUUID();
    const act = async (party: "owner" | "sitter", event: BookingEvent) => {
      const result = await transition(id, { kind: party, userId: this.id(booking[party]) }, event);
      if (!result.ok) throw new Error(`Demo booking of ${booking.pet}, ${event.type}: ${result.refusal}`);
    };

    this.at(requestedAt, async () => {
      const owner = await this.user(booking.owner);
      const input = {
        id,
        sitterId: this.id(booking.sitter),
        petIds: [this.pet(booking.owner, booking.pet)],
        day,
        startTime,
        hours: booking.hours,
        notes: booking.notes ?? "",
      };
      const requested = await requestBooking(owner, input, paymentProvider("test"));
      if (requested.status !== "created") throw new Error(`Demo booking of ${booking.pet}: ${requested.reason}`);
      const paid = await payForBooking(owner, id, { ...this.card, name: booking.owner }, randomUUID());
      if (paid.status !== "held" && paid.status !== "card-saved")
        throw new Error(`Demo payment for ${booking.pet}: ${paid.status}`);
    });
    if (booking.outcome === "requested") return;
    if (booking.outcome === "declined") return this.at(answeredAt, () => act("sitter", { type: "decline" }));
    this.at(answeredAt, () => act("sitter", { type: "accept" }));
    if (booking.outcome === "cancelledByOwner")
      return this.at(-DAY, () =>
        act("owner", { type: "cancel", reason: "My sister is in town and will look after Greta." }),
      );
    // The others are released by the scheduler 72 hours after they end, or not yet.
    if (booking.outcome === "released") this.at(endsAt + 4 * HOUR, () => act("owner", { type: "release" }));
    if (booking.review) {
      const { ownerStars, ownerSays, sitterStars, sitterSays } = booking.review;
      this.at(endsAt + 5 * HOUR, () => this.review(booking.owner, id, ownerStars, ownerSays));
      this.at(endsAt + 7 * HOUR, () => this.review(booking.sitter, id, sitterStars, sitterSays));
    }
  }

  private async review(name: string, bookingId: string, rating: number, comment: string) {
    const result = await leaveReview(this.id(name), bookingId, rating, comment);
    if (result !== "saved") throw new Error(`Demo review by ${name}: ${result}`);
  }

  private async readOlderNotifications() {
    for (const userId of this.users.values()) {
      const unread = await db
        .selectFrom("notifications")
        .select("id")
        .where("user_id", "=", userId)
        .where("is_read", "=", 0)
        .orderBy("created_at", "desc")
        .execute();
      for (const { id } of unread.slice(UNREAD_NOTIFICATIONS)) await openNotification(userId, id);
    }
  }
}
