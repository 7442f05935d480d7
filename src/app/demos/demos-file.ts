/** Which dropped or chosen file is a `.demos` file, and the sentence when one is refused. */

/** The one `.demos` file among those given, or the sentence refusing the drop. */
export function chooseDemosFile<T extends { name: string }>(files: readonly T[]): T | string {
  const demos = files.filter((file) => file.name.toLowerCase().endsWith('.demos'));
  if (demos.length === 1) return demos[0];
  if (demos.length > 1) return `${demos.length} .demos files were dropped: drop one at a time.`;
  if (files.length === 0) return 'No file was dropped: drop a .demos file, or click to choose one.';
  const names = files.map((file) => file.name).join(', ');
  return `${names} ${files.length === 1 ? 'is not a .demos file' : 'are not .demos files'}: drop demos recorded here or by npm run demos.`;
}

/** The worker's sentence, naming the file when the sentence does not already. */
export function refusalText(fileName: string, message: string): string {
  const sentence = message.trim().replace(/\.$/, '');
  return sentence.includes(fileName) ? `${sentence}.` : `${fileName} was refused: ${sentence}.`;
}
