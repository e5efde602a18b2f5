using System.Text.Json;

namespace Inventory;

public record Item(string Sku, string Name, int Quantity, decimal UnitPrice);

public static class Program
{
    public static int Main(string[] args)
    {
        var path = args.Length > 0 ? args[0] : "inventory.json";
        if (!File.Exists(path))
        {
            Console.Error.WriteLine($"inventory file not found: {path}");
            return 2;
        }

        var items = JsonSerializer.Deserialize<List<Item>>(File.ReadAllText(path)) ?? new();
        var settings = Settings.Load("appsettings.json");
        var low = items.Where(i => i.Quantity <= settings.LowStockThreshold).ToList();

        foreach (var item in low)
        {
            Console.WriteLine($"LOW  {item.Sku,-10} {item.Name,-30} {item.Quantity,5}");
        }

        var value = items.Sum(i => i.Quantity * i.UnitPrice);
        Console.WriteLine($"{items.Count} items, {low.Count} running low");
        Console.WriteLine($"Stock value: {value:C}");
        return low.Count == 0 ? 0 : 1;
    }
}
