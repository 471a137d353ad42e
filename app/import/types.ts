// The Import page's preview, shared by its action (which makes it) and its form (which shows it).

/** One row of the file as the preview shows it: where and when it goes, and what is wrong with it. */
export type PreviewRow = { row: number; where: string; text: string; parts: number; when: string | null; own: boolean; problems: string[] };

/** The preview of a file: its rows, how many have problems, and (with none) what the confirm sends back. */
export type Preview = {
  fileError?: string;
  rows?: PreviewRow[];
  bad?: number;
  confirm?: { rows: string; alts: string; shown: string; key: string };
};
