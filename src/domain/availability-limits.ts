/** One availability occurrence is at most a week long (a longer absence is time off); bounds the guards' index reads. */
export const MAX_OCCURRENCE_MS = 7 * 86_400_000;
