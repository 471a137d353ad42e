import type { ReactNode } from "react";
import "./globals.css";

export const metadata = { title: "Contentio", description: "Draft, schedule and publish for LinkedIn and X" };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
