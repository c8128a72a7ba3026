export { PushSection } from "./push-section";
