import { z } from 'zod';
import { DateTime, Id } from './common';

export const Stats = z.object({
  totalUserCount: z.number().int(),
  totalTestLink: z.number().int(),
  totalTestLinkCompleted: z.number().int(),
  totalCertificateGenerated: z.number().int(),
  totalBadgeGenerated: z.number().int(),
  totalFeatherGenerated: z.number().int(),
  /** Seconds per learner per day of learning. */
  totalUserAverageLearningTime: z.number(),
});

export const TenantUserEntry = z.object({
  _id: Id,
  learnerId: z.object({
    _id: Id,
    name: z.string().nullable(),
    phoneNumber: z.string().nullable(),
    countrycode: z.string().nullable(),
    email: z.string(),
  }),
  isDisabled: z.boolean(),
});

export const SubscriptionInfo = z.object({
  isSubscribed: z.boolean(),
  isAccessToAddUser: z.boolean(),
  isOffered: z.boolean(),
  subscriptionQuantity: z.number().int(),
  planAmount: z.number(),
  subscriptionAmount: z.number(),
  startingBalance: z.number(),
  subscriptionNextDue: DateTime.nullable(),
  nextDueAmount: z.number(),
  startDate: DateTime.nullable(),
  totalQuantity: z.number().int(),
  totalAmount: z.number(),
  periodType: z.string(),
});

export const AwardRow = z.object({
  name: z.string().nullable(),
  email: z.string(),
  testlinks: z.object({
    assignedRoadMapName: z.string().nullable(),
    assignedSectionName: z.string().nullable(),
    assignedResourceName: z.string().nullable(),
    percentage: z.number().nullable(),
    linkId: z.string(),
  }),
});

export const LearningReportRow = z.object({
  name: z.string().nullable(),
  email: z.string(),
  countrycode: z.string().nullable(),
  phoneNumber: z.string().nullable(),
  createdAt: DateTime,
  TotalDayReports: z.number().int(),
  TotalTimeSpent: z.number(),
  averageTimeSpent: z.number(),
});

export const UserAchievement = z.object({
  _id: z.enum(['RESOURCE', 'SECTION', 'ROADMAP']),
  count: z.number().int(),
});
