console.log("cli build placeholder")
