import { hostileInputTests } from "~/testing/hostile-input/suite";
import { PAYMENT_AND_OPERATOR_FORMS } from "~/testing/hostile-input/payments-and-operators";

hostileInputTests("payments and operators", PAYMENT_AND_OPERATOR_FORMS);
