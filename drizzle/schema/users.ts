import { boolean, pgTable, text } from "drizzle-orm/pg-core";
import { at, createdAt, id, jsonb, updatedAt } from "./columns";

export type Plan = "none" | "plus" | "premium" | "creator";
export type Pillar = { name: string; description: string | null };

export const users = pgTable("users", {
  id: id(),
  email: text("email").notNull().unique(),
  emailVerified: at("email_verified"),
  name: text("name"),
  image: text("image"),
  passwordHash: text("password_hash"),
  plan: text("plan").$type<Plan>().notNull().default("none"),
  // Set when onboarding (name, time zone, voice) is finished; null means account_incomplete.
  accountCompletedAt: at("account_completed_at"),
  // Set when the owner saved their profile (onboarding) once. The owner the first start makes
  // is complete (the API works at once) but has no profile yet: signing in sends them to
  // onboarding while this is null.
  onboardedAt: at("onboarded_at"),
  timezone: text("timezone").notNull().default("UTC"),
  voiceSummary: text("voice_summary"),
  tone: jsonb("tone").$type<string[]>().notNull().default([]),
  samplePosts: jsonb("sample_posts").$type<string[]>().notNull().default([]),
  niche: text("niche"),
  traits: jsonb("traits").$type<string[]>().notNull().default([]),
  pillars: jsonb("pillars").$type<Pillar[]>().notNull().default([]),
  // "Allow connected apps to publish, schedule and delete" (Settings > Connections).
  publishingAllowed: boolean("publishing_allowed").notNull().default(false),
  // When the owner put the "Getting started" list away (it stays under Profile); null: it shows on Content.
  gettingStartedHiddenAt: at("getting_started_hidden_at"),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});
