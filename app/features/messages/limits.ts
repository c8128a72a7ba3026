export const MESSAGE_MAX = 2000;
