import { hostileInputTests } from "~/testing/hostile-input/suite";
import { ACCOUNT_FORMS } from "~/testing/hostile-input/accounts";

hostileInputTests("accounts", ACCOUNT_FORMS);
