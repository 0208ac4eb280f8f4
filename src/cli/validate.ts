export async function run(_args: string[]): Promise<number> {
  console.error('cardspec validate: not built yet');
  return 2;
}
