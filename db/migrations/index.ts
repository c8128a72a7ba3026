import type { Migration } from "kysely";
import * as foundation from "./0001-foundation";
import * as profilesPetsPhotos from "./0002-profiles-pets-photos";
import * as swipesMatches from "./0003-swipes-matches";
import * as discovery from "./0004-discovery";
import * as bookings from "./0005-bookings";
import * as messagesEvents from "./0006-messages-events";
import * as subscriptions from "./0007-subscriptions";
import * as stripe from "./0008-stripe";
import * as chatMediaSounds from "./0009-chat-media-sounds";
import * as dailyLikes from "./0010-daily-likes";
import * as stripeSubscriptions from "./0011-stripe-subscriptions";
import * as emailRetries from "./0012-email-retries";
import * as coarsePositions from "./0013-coarse-positions";
import * as backoffs from "./0014-backoffs";
import * as rateLimitExpiry from "./0015-rate-limit-expiry";
import * as yearsPendingUploads from "./0016-years-pending-uploads";
import * as accountSettings from "./0019-account-settings";
import * as careVisits from "./0021-care-visits";
import * as disputesHistoryReplies from "./0018-disputes-history-replies";
import * as operatorSafety from "./0017-operator-safety";
import * as termsAcceptance from "./0020-terms-acceptance";
import * as unreadCounters from "./0023-unread-counters";
import * as deckAccessPaths from "./0025-deck-access-paths";
import * as recentPairs from "./0026-recent-pairs";
import * as premiumUntil from "./0027-premium-until";
import * as bookingPairs from "./0028-booking-pairs";
import * as deckFineRowsPremium from "./0029-deck-fine-rows-premium";
import * as swipesCardCovering from "./0030-swipes-card-covering";
import * as rateLimitHits from "./0031-rate-limit-hits";
import * as pushSubscriptions from "./0032-push-subscriptions";
import * as pushKeys from "./0033-push-keys";
import * as cancellationPolicies from "./0038-cancellation-policies";
import * as sitterServices from "./0040-sitter-services";
import * as sitterDaysOff from "./0041-sitter-days-off";
import * as bookingPets from "./0042-booking-pets";
import * as testTransfers from "./0044-test-transfers";
import * as calendarFeeds from "./0045-calendar-feeds";
import * as deckFromPrice from "./0046-deck-from-price";
import * as stays from "./0047-stays";
import * as meetGreets from "./0049-meet-greets";
import * as stayDailyUpdates from "./0050-stay-daily-updates";
import * as careSeries from "./0051-care-series";
import * as sitterTimeExclusion from "./0052-sitter-time-exclusion";

/** Every migration, in order. A static index (not a folder scan) so the bundled server carries them. */
export const migrations: Record<string, Migration> = {
  "0001-foundation": foundation,
  "0002-profiles-pets-photos": profilesPetsPhotos,
  "0003-swipes-matches": swipesMatches,
  "0004-discovery": discovery,
  "0005-bookings": bookings,
  "0006-messages-events": messagesEvents,
  "0007-subscriptions": subscriptions,
  "0008-stripe": stripe,
  "0009-chat-media-sounds": chatMediaSounds,
  "0010-daily-likes": dailyLikes,
  "0011-stripe-subscriptions": stripeSubscriptions,
  "0012-email-retries": emailRetries,
  "0013-coarse-positions": coarsePositions,
  "0014-backoffs": backoffs,
  "0015-rate-limit-expiry": rateLimitExpiry,
  "0016-years-pending-uploads": yearsPendingUploads,
  "0017-operator-safety": operatorSafety,
  "0018-disputes-history-replies": disputesHistoryReplies,
  "0019-account-settings": accountSettings,
  "0020-terms-acceptance": termsAcceptance,
  "0021-care-visits": careVisits,
  "0023-unread-counters": unreadCounters,
  "0025-deck-access-paths": deckAccessPaths,
  "0026-recent-pairs": recentPairs,
  "0027-premium-until": premiumUntil,
  "0028-booking-pairs": bookingPairs,
  "0029-deck-fine-rows-premium": deckFineRowsPremium,
  "0030-swipes-card-covering": swipesCardCovering,
  "0031-rate-limit-hits": rateLimitHits,
  "0032-push-subscriptions": pushSubscriptions,
  "0033-push-keys": pushKeys,
  "0038-cancellation-policies": cancellationPolicies,
  "0040-sitter-services": sitterServices,
  "0041-sitter-days-off": sitterDaysOff,
  "0042-booking-pets": bookingPets,
  "0044-test-transfers": testTransfers,
  "0045-calendar-feeds": calendarFeeds,
  "0046-deck-from-price": deckFromPrice,
  "0047-stays": stays,
  "0049-meet-greets": meetGreets,
  "0050-stay-daily-updates": stayDailyUpdates,
  "0051-care-series": careSeries,
  "0052-sitter-time-exclusion": sitterTimeExclusion,
};
