import { env as currentEnv, OPERATOR_FIELDS, REQUIRED_OPERATOR_FIELDS, type Env } from "~/platform/env.server";

export type OperatorField = "name" | "address" | "email" | "phone" | "representative" | "register" | "vatId";

const FIELD_OF: Record<(typeof OPERATOR_FIELDS)[number], OperatorField> = {
  OPERATOR_NAME: "name",
  OPERATOR_ADDRESS: "address",
  OPERATOR_EMAIL: "email",
  OPERATOR_PHONE: "phone",
  OPERATOR_REPRESENTATIVE: "representative",
  OPERATOR_REGISTER: "register",
  OPERATOR_VAT_ID: "vatId",
};

/** Shown, marked as examples, only outside production when no operator detail is configured. */
const EXAMPLE: Record<OperatorField, string> = {
  name: "Example Pet Care S.L.",
  address: "Calle de Ejemplo 1\n28001 Madrid\nSpain",
  email: "hello@example.com",
  phone: "+34 900 000 000",
  representative: "Alex Example",
  register: "Registro Mercantil de Madrid, Hoja M-000000",
  vatId: "ESB00000000",
};

export type Imprint = {
  /** `example`: nothing configured in development, tests or demo mode, so the page shows made-up details, marked as such. */
  source: "configured" | "example";
  details: { field: OperatorField; value: string }[];
  /** Required details the operator has not set (production shows this instead of inventing any). */
  missing: OperatorField[];
};

type OperatorEnv = Pick<Env, (typeof OPERATOR_FIELDS)[number] | "devToolsEnabled">;

export function imprintOf(env: OperatorEnv = currentEnv): Imprint {
  const configured = OPERATOR_FIELDS.filter((name) => env[name]);
  if (configured.length === 0 && env.devToolsEnabled) {
    return {
      source: "example",
      details: OPERATOR_FIELDS.map((name) => ({ field: FIELD_OF[name], value: EXAMPLE[FIELD_OF[name]] })),
      missing: [],
    };
  }
  return {
    source: "configured",
    details: configured.map((name) => ({ field: FIELD_OF[name], value: env[name] as string })),
    missing: REQUIRED_OPERATOR_FIELDS.filter((name) => !env[name]).map((name) => FIELD_OF[name]),
  };
}

/** For the start-up log of a production server whose imprint lacks required details. */
export function missingOperatorWarning(
  env: OperatorEnv & Pick<Env, "NODE_ENV" | "DEMO_MODE"> = currentEnv,
): string | null {
  if (env.NODE_ENV !== "production" || env.DEMO_MODE) return null;
  const missing = REQUIRED_OPERATOR_FIELDS.filter((name) => !env[name]);
  if (missing.length === 0) return null;
  return `The imprint (/imprint) says the operator's details are missing: set ${missing.join(", ")} (see .env.example).`;
}
