import { hostileInputTests } from "~/testing/hostile-input/suite";
import { MEMBER_FORMS } from "~/testing/hostile-input/members";

hostileInputTests("members", MEMBER_FORMS);
